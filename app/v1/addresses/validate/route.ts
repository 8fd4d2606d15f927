import { validateAddresses } from "@/lib/addresses/validate-addresses";
import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { AddressValidateRequest, AddressValidationList } from "@/lib/schemas/address-book";

export const POST = withApi(
  {
    route: "/v1/addresses/validate",
    body: AddressValidateRequest,
    doc: {
      id: "validateAddresses",
      summary: "Check up to 100 addresses offline and with a connected carrier; nothing is changed",
      response: AddressValidationList,
      responses: { 200: "One result per address, in the order sent" },
    },
  },
  async ({ ctx, body }) => ({ body: { results: await validateAddresses({ ctx, input: body }) } }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
