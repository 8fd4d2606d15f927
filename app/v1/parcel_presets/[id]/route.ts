import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { deleteParcelPreset } from "@/lib/orgs/parcel-presets/delete-parcel-preset";
import { getParcelPreset } from "@/lib/orgs/parcel-presets/get-parcel-preset";
import { updateParcelPreset } from "@/lib/orgs/parcel-presets/update-parcel-preset";
import { idParam } from "@/lib/schemas/params";
import { ParcelPreset, ParcelPresetUpdate } from "@/lib/schemas/parcel-preset";

const route = "/v1/parcel_presets/{id}";
const params = idParam("pps_");
const responses = { 200: "The parcel preset", 404: "not_found" };

export const GET = withApi(
  {
    route,
    params,
    doc: { id: "getParcelPreset", summary: "Retrieve a parcel preset", response: ParcelPreset, responses },
  },
  async ({ ctx, params }) => ({ body: await getParcelPreset({ ctx, id: params.id }) }),
);

export const PATCH = withApi(
  {
    route,
    params,
    role: "admin",
    body: ParcelPresetUpdate,
    doc: { id: "updateParcelPreset", summary: "Change a parcel preset", response: ParcelPreset, responses },
  },
  async ({ ctx, params, body }) => ({ body: await updateParcelPreset({ ctx, id: params.id, input: body }) }),
);

export const DELETE = withApi(
  {
    route,
    params,
    role: "admin",
    doc: {
      id: "deleteParcelPreset",
      summary: "Delete a parcel preset (answers it as it was)",
      response: ParcelPreset,
      responses,
    },
  },
  async ({ ctx, params }) => ({ body: await deleteParcelPreset({ ctx, id: params.id }) }),
);

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
