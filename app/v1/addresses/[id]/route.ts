import { deleteSavedAddress } from "@/lib/addresses/delete-saved-address";
import { getSavedAddress } from "@/lib/addresses/get-saved-address";
import { updateSavedAddress } from "@/lib/addresses/update-saved-address";
import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { SavedAddress, SavedAddressUpdate } from "@/lib/schemas/address-book";
import { idParam } from "@/lib/schemas/params";

const route = "/v1/addresses/{id}";
const params = idParam("adb_");
const responses = { 200: "The saved address", 404: "not_found" };

export const GET = withApi(
  { route, params, doc: { id: "getAddress", summary: "Retrieve a saved address", response: SavedAddress, responses } },
  async ({ ctx, params }) => ({ body: await getSavedAddress({ ctx, id: params.id }) }),
);

export const PATCH = withApi(
  {
    route,
    params,
    body: SavedAddressUpdate,
    doc: { id: "updateAddress", summary: "Change a saved address", response: SavedAddress, responses },
  },
  async ({ ctx, params, body }) => ({ body: await updateSavedAddress({ ctx, id: params.id, input: body }) }),
);

export const DELETE = withApi(
  {
    route,
    params,
    doc: {
      id: "deleteAddress",
      summary: "Delete a saved address (answers it as it was)",
      response: SavedAddress,
      responses,
    },
  },
  async ({ ctx, params }) => ({ body: await deleteSavedAddress({ ctx, id: params.id }) }),
);

export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
