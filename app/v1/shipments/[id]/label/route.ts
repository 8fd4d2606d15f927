import { otherMethods } from "@/lib/api/fallback";
import { fileResponse } from "@/lib/api/file-response";
import { withApi } from "@/lib/api/with-api";
import { idParam } from "@/lib/schemas/params";
import { LabelQuery } from "@/lib/schemas/shipment";
import { getLabel, LABEL_MEDIA_TYPES } from "@/lib/shipments/get-label";

export const GET = withApi(
  {
    route: "/v1/shipments/{id}/label",
    params: idParam("shp_"),
    query: LabelQuery,
    doc: {
      id: "getShipmentLabel",
      summary: "The label file itself (PDF, ZPL or PNG) as a download, or laid on a Letter or A4 sheet (PDF)",
      response: { files: LABEL_MEDIA_TYPES },
      responses: {
        200: "The file",
        400: "format does not match the label, or a layout the label cannot take (ZPL on paper)",
        404: "not_found",
        409: "No label yet, or voided",
      },
    },
  },
  async ({ ctx, params, query }) => {
    const file = await getLabel({ ctx, id: params.id, format: query.format, layout: query.layout });
    return fileResponse(file);
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
