import { otherMethods } from "@/lib/api/fallback";
import { withApi } from "@/lib/api/with-api";
import { listCarriers } from "@/lib/connections/list-carriers";
import { CarrierList } from "@/lib/schemas/carrier";

export const GET = withApi(
  {
    route: "/v1/carriers",
    doc: {
      id: "listCarriers",
      summary: "The carriers this service speaks: services, label types and sizes, credential and config schemas",
      response: CarrierList,
      responses: { 200: "Every carrier, with its adapter's declarations" },
    },
  },
  async () => ({ body: { results: listCarriers() } }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
