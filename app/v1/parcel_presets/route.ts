import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { createParcelPreset } from "@/lib/orgs/parcel-presets/create-parcel-preset";
import { listParcelPresets } from "@/lib/orgs/parcel-presets/get-parcel-preset";
import { ParcelPreset, ParcelPresetCreate, ParcelPresetList, ParcelPresetListQuery } from "@/lib/schemas/parcel-preset";

const route = "/v1/parcel_presets";

export const GET = withApi(
  {
    route,
    query: ParcelPresetListQuery,
    doc: {
      id: "listParcelPresets",
      summary: "List the organization's parcel presets, the default first, then by name",
      response: ParcelPresetList,
      responses: { 200: "A page of parcel presets" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await listParcelPresets({ ctx, query });
    return { body: paginate(req, query, count, results) };
  },
);

export const POST = withApi(
  {
    route,
    role: "admin",
    body: ParcelPresetCreate,
    doc: {
      id: "createParcelPreset",
      summary: "Save a parcel preset",
      response: ParcelPreset,
      responses: { 201: "The saved preset", 409: "state_conflict: 100 presets already" },
    },
  },
  async ({ ctx, body }) => ({ status: 201, body: await createParcelPreset({ ctx, input: body }) }),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
