import { createSavedAddress } from "@/lib/addresses/create-saved-address";
import { listSavedAddresses } from "@/lib/addresses/list-saved-addresses";
import { otherMethods } from "@/lib/api/fallback";
import { paginate } from "@/lib/api/pagination";
import { withApi } from "@/lib/api/with-api";
import { SavedAddress, SavedAddressCreate, SavedAddressList, SavedAddressListQuery } from "@/lib/schemas/address-book";

const route = "/v1/addresses";

export const GET = withApi(
  {
    route,
    query: SavedAddressListQuery,
    doc: {
      id: "listAddresses",
      summary: "List the address book, newest first",
      response: SavedAddressList,
      responses: { 200: "A page of saved addresses" },
    },
  },
  async ({ ctx, query, req }) => {
    const { count, results } = await listSavedAddresses({ ctx, query });
    return { body: paginate(req, query, count, results) };
  },
);

export const POST = withApi(
  {
    route,
    body: SavedAddressCreate,
    doc: {
      id: "createAddress",
      summary: "Save an address to the book",
      response: SavedAddress,
      responses: { 201: "The saved address" },
    },
  },
  async ({ ctx, body }) => ({ status: 201, body: await createSavedAddress({ ctx, input: body }) }),
);

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
