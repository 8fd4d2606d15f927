import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { getMappingTemplate, saveMappingTemplate } from "@/lib/batches/mapping-template";
import { BatchMapping, BatchMappingPut } from "@/lib/schemas/batch";

const route = "/v1/batches/mapping";

export const GET = withApi(
  {
    route,
    doc: {
      id: "getBatchMapping",
      summary: "The organization's saved CSV column mapping (field → CSV header), empty before the first save",
      response: BatchMapping,
      responses: { 200: "The mapping" },
    },
  },
  async ({ ctx }) => ({ body: await getMappingTemplate(ctx) }),
);

export const PUT = withApi(
  {
    route,
    body: BatchMappingPut,
    doc: {
      id: "putBatchMapping",
      summary: "Replace the organization's saved CSV column mapping",
      response: BatchMapping,
      responses: { 200: "The mapping as saved", 400: "validation_error: an unknown field or an empty header" },
    },
  },
  async ({ ctx, body }) => ({ body: await saveMappingTemplate(ctx, body) }),
);

export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");
