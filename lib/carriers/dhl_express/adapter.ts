import type {
  Address,
  AddressVerification,
  AdapterContext,
  AdapterResult,
  RateQuote,
  RateRequest,
  ShipRequest,
  ShipResult,
  TrackingResult,
} from "@/lib/carriers/types";
import { defineAdapter } from "@/lib/carriers/types";
import { addressValidatePath, parseAddressValidate } from "@/lib/carriers/dhl_express/address-validate";
import { answerOf, dhlCall, dhlCredentials } from "@/lib/carriers/dhl_express/api";
import {
  DHL_LABEL_SIZES,
  dhlConfigSchema,
  dhlCredentialsSchema,
  readDhlConfig,
} from "@/lib/carriers/dhl_express/config";
import { buildRateRequest, parseRateAnswer } from "@/lib/carriers/dhl_express/rating";
import { DHL_SERVICES } from "@/lib/carriers/dhl_express/services";
import { buildShipRequest, PAPERLESS_TRADE, parseShipAnswer } from "@/lib/carriers/dhl_express/ship";
import { parseTrackAnswer, trackPath } from "@/lib/carriers/dhl_express/tracking";
import { carrierShipDate } from "@/lib/carriers/ship-date";

/**
 * DHL Express through MyDHL API 3.x (developer.dhl.com): HTTP Basic on every call, Rates, Shipments and Tracking
 * (docs/dhl_express.md). MyDHL has no call that cancels a shipment (its only DELETE cancels a pickup): the adapter
 * declares no "void", and a bought label is cancelled in the service alone, with `unvoidable_note` saying why that
 * costs nothing.
 */
export const dhlExpressAdapter = defineAdapter({
  carrier_name: "dhl_express",
  display_name: "DHL Express",
  capabilities: ["rates", "ship", "track", "address_validation"],
  // MyDHL checks a postal code and city of any country it serves (addressCountries absent: every country), one per call.
  addressBatch: 1,
  addressScope: "place",
  label_types: ["PDF", "ZPL"],
  label_sizes: DHL_LABEL_SIZES,
  services: DHL_SERVICES.map(({ code, name, scope }) => ({ code, name, scope })),
  endpoints: {
    test: "https://express.api.dhl.com/mydhlapi/test",
    live: "https://express.api.dhl.com/mydhlapi",
  },
  credentialsSchema: dhlCredentialsSchema,
  configSchema: dhlConfigSchema,
  // MyDHL publishes no limit; the developer portal's starter tier allows one call per second: tracking takes most.
  trackingBudget: { concurrency: 1, requestsPerMinute: 50, batchSize: 1 },
  unvoidable_note:
    "DHL Express bills a shipment only once it scans the parcel into its network, so an unused label costs nothing; do not hand the parcel to DHL under it.",

  validateAddresses: async (
    ctx: AdapterContext,
    addresses: Address[],
  ): Promise<AdapterResult<AddressVerification[]>> => {
    const data: AddressVerification[] = [];
    for (const address of addresses) {
      const answer = await dhlCall(ctx, {
        operation: "address_validation",
        method: "GET",
        path: addressValidatePath(address),
        idempotent: true,
      });
      data.push(parseAddressValidate(address, answer));
    }
    return { data, messages: [] };
  },

  rate: async (ctx: AdapterContext, req: RateRequest): Promise<AdapterResult<RateQuote[]>> => {
    const config = readDhlConfig(ctx.connection.config);
    const shipDate = carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime);
    const { body, messages: sent } = buildRateRequest(req, {
      accountNumber: dhlCredentials(ctx).account_number,
      shipDate,
      cutoffTime: config.cutoffTime,
    });
    const answer = await dhlCall(ctx, { operation: "rate", method: "POST", path: "/rates", body, idempotent: true });
    const { quotes, messages } = parseRateAnswer(answerOf(answer), shipDate, req.services);
    return { data: quotes, messages: [...sent, ...messages] };
  },

  ship: async (ctx: AdapterContext, req: ShipRequest): Promise<AdapterResult<ShipResult>> => {
    const config = readDhlConfig(ctx.connection.config);
    const { body, messages: sent } = buildShipRequest(req, {
      accountNumber: dhlCredentials(ctx).account_number,
      labelStock: config.labelStock,
      paperlessTrade: config.paperlessTrade,
      shipDate: carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime),
      cutoffTime: config.cutoffTime,
    });
    const paperless = (body.valueAddedServices ?? []).some((v) => v.serviceCode === PAPERLESS_TRADE);
    // Not idempotent: a ship call repeated after a lost answer can buy a second label. Where DHL does not allow
    // Paperless Trade on the lane it ships without it (bypassPLTError) rather than refusing the label; the answer's
    // services say whether it was taken.
    const answer = await dhlCall(ctx, {
      operation: "ship",
      method: "POST",
      path: paperless ? "/shipments?bypassPLTError=true" : "/shipments",
      body,
      idempotent: false,
    });
    const { result, messages } = await parseShipAnswer(answerOf(answer), req, paperless);
    return { data: result, messages: [...sent, ...messages] };
  },

  track: async (ctx: AdapterContext, trackingNumber: string): Promise<AdapterResult<TrackingResult>> => {
    const answer = await dhlCall(ctx, {
      operation: "track",
      method: "GET",
      path: trackPath(trackingNumber),
      idempotent: true,
    });
    const { result, messages } = parseTrackAnswer(answer, trackingNumber);
    return { data: result, messages };
  },
});
