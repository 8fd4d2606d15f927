import "server-only";
import {
  CarrierError,
  defineAdapter,
  type AdapterContext,
  type AdapterMessage,
  type Address,
  type AddressVerification,
  type AdapterResult,
  type RateQuote,
  type RateRequest,
  type ShipRequest,
  type ShipResult,
  type TrackingResult,
  type VoidRequest,
  type VoidResult,
} from "@/lib/carriers/types";
import { credentialsOf, sendAuthorized, upsCredentialsSchema } from "@/lib/carriers/ups/auth";
import { carrierShipDate } from "@/lib/carriers/ship-date";
import { readUpsConfig, upsConfigSchema } from "@/lib/carriers/ups/config";
import { errorFromResponse, jsonOrNull } from "@/lib/carriers/ups/errors";
import { labelFile, upsImageFormat } from "@/lib/carriers/ups/label";
import { buildRateRequest, parseRateResponse } from "@/lib/carriers/ups/rating";
import { UPS_SERVICES } from "@/lib/carriers/ups/services";
import { SHIPPING_VERSION, buildShipRequest, parseShipResponse } from "@/lib/carriers/ups/shipping";
import { inquiryNumber, notFound, notFoundAnswer, parseTrackResponse } from "@/lib/carriers/ups/tracking";
import { parseVoidResponse } from "@/lib/carriers/ups/void";
import {
  UPS_ADDRESS_COUNTRIES,
  XAV_PATH,
  buildXavRequest,
  parseXavResponse,
} from "@/lib/carriers/ups/address-validation";

/**
 * UPS (docs/ups.md): OAuth client credentials, Rating with time in transit, Shipping, Void and Tracking over UPS's
 * REST APIs, at `ctx.baseUrl` (wwwcie.ups.com for test connections, onlinetools.ups.com for live ones, or the carrier
 * emulator). UPS has no lookup by reference and tracks one number per call.
 */

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

async function rate(ctx: AdapterContext, req: RateRequest): Promise<AdapterResult<RateQuote[]>> {
  const { account_number } = credentialsOf(ctx);
  const config = readUpsConfig(ctx.connection.config);
  const built = buildRateRequest(req, {
    accountNumber: account_number,
    negotiatedRates: config.negotiatedRates,
    shipDate: carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime),
  });
  const res = await sendAuthorized(ctx, () => ({
    method: "POST",
    url: `${ctx.baseUrl}${built.path}`,
    ...json(built.body),
    operation: "rate",
    idempotent: true,
  }));
  if (res.status !== 200) throw errorFromResponse(res);
  const parsed = parseRateResponse(res.json(), {
    origin: req.shipper.country_code,
    negotiatedRates: config.negotiatedRates,
    requested: req.services,
  });
  return { data: parsed.quotes, messages: [...built.messages, ...parsed.messages] };
}

async function ship(ctx: AdapterContext, req: ShipRequest): Promise<AdapterResult<ShipResult>> {
  if (req.label_type === "PNG" && req.parcels.length > 1) {
    throw new CarrierError(
      "not_supported",
      "UPS draws one label per parcel and a PNG holds one label: buy a shipment of several parcels as PDF or ZPL.",
      { field: "label_type" },
    );
  }
  const { account_number } = credentialsOf(ctx);
  const config = readUpsConfig(ctx.connection.config);
  const built = buildShipRequest(req, {
    accountNumber: account_number,
    negotiatedRates: config.negotiatedRates,
    shipDate: carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime),
  });
  const res = await sendAuthorized(ctx, () => ({
    method: "POST",
    url: `${ctx.baseUrl}/api/shipments/${SHIPPING_VERSION}/ship`,
    ...json(built.body),
    operation: "ship",
    // A second send could buy a second label.
    idempotent: false,
  }));
  if (res.status !== 200) throw errorFromResponse(res);
  const body = res.json();
  let parsed: ReturnType<typeof parseShipResponse>;
  let bytes: Uint8Array;
  try {
    parsed = parseShipResponse(body, {
      service: req.service,
      origin: req.shipper.country_code,
      negotiatedRates: config.negotiatedRates,
      expectedFormat: upsImageFormat(req.label_type),
    });
    bytes = await labelFile(req.label_type, parsed.labels);
  } catch (error) {
    throw await unusableLabel(ctx, body, error);
  }
  return {
    data: {
      tracking_number: parsed.trackingNumber,
      shipment_identifier: parsed.shipmentId,
      label: { type: req.label_type, bytes },
      documents: parsed.documents,
      charge: parsed.charge,
      meta: parsed.trackingNumbers.length > 1 ? { tracking_numbers: parsed.trackingNumbers } : {},
    },
    messages: [...built.messages, ...parsed.messages],
  };
}

/**
 * UPS sold a label whose answer we cannot use (no label, the wrong format, an unreadable image): void it, so the
 * account is not charged for a label nobody can print, and say what happened.
 */
async function unusableLabel(ctx: AdapterContext, body: unknown, error: unknown): Promise<CarrierError> {
  const results = (body as { ShipmentResponse?: { ShipmentResults?: { ShipmentIdentificationNumber?: unknown } } })
    ?.ShipmentResponse?.ShipmentResults;
  const id = typeof results?.ShipmentIdentificationNumber === "string" ? results.ShipmentIdentificationNumber : null;
  const reason = error instanceof CarrierError ? error.message : "UPS sent a label image that could not be read.";
  if (!id) return error instanceof CarrierError ? error : new CarrierError("carrier_bad_response", reason);
  let voided = false;
  try {
    voided = (await voidLabel(ctx, { tracking_number: id, shipment_identifier: id })).data.voided;
  } catch {
    // Best effort: the message below says the label may still need voiding.
  }
  return new CarrierError(
    "carrier_bad_response",
    `${reason} UPS sold shipment ${id}; ${voided ? "it was voided" : "void it, it could not be voided just now"}.`,
    { shipment_identifier: id, voided },
  );
}

async function voidLabel(ctx: AdapterContext, req: VoidRequest): Promise<AdapterResult<VoidResult>> {
  const shipmentId = (req.shipment_identifier ?? req.tracking_number).trim().toUpperCase();
  const res = await sendAuthorized(ctx, () => ({
    method: "DELETE",
    url: `${ctx.baseUrl}/api/shipments/${SHIPPING_VERSION}/void/cancel/${encodeURIComponent(shipmentId)}`,
    operation: "void",
    idempotent: true,
  }));
  return parseVoidResponse(res, shipmentId);
}

async function track(ctx: AdapterContext, trackingNumber: string): Promise<AdapterResult<TrackingResult>> {
  const number = inquiryNumber(trackingNumber);
  // UPS would refuse it (TV1002): no need to spend a call of the connection's budget to hear so.
  if (!number) throw notFound(trackingNumber);
  const query = new URLSearchParams({ locale: "en_US", returnSignature: "false" });
  const res = await sendAuthorized(ctx, () => ({
    method: "GET",
    url: `${ctx.baseUrl}/api/track/v1/details/${encodeURIComponent(number)}?${query}`,
    operation: "track",
    idempotent: true,
  }));
  if (res.status === 200) return parseTrackResponse(res.json(), number);
  if (res.status < 500) {
    const missing = notFoundAnswer(jsonOrNull(res), res.status, number);
    if (missing) throw missing;
  }
  throw errorFromResponse(res);
}

/** One call per address: XAV takes a single AddressKeyFormat. */
async function validateAddresses(
  ctx: AdapterContext,
  addresses: Address[],
): Promise<AdapterResult<AddressVerification[]>> {
  const data: AddressVerification[] = [];
  const messages: AdapterMessage[] = [];
  for (const address of addresses) {
    const res = await sendAuthorized(ctx, () => ({
      method: "POST",
      url: `${ctx.baseUrl}${XAV_PATH}`,
      ...json(buildXavRequest(address)),
      operation: "address_validation",
      idempotent: true,
    }));
    if (res.status !== 200) throw errorFromResponse(res);
    const parsed = parseXavResponse(address, jsonOrNull(res));
    data.push(parsed.data);
    messages.push(...parsed.messages);
  }
  return { data, messages };
}

export const upsAdapter = defineAdapter({
  carrier_name: "ups",
  display_name: "UPS",
  capabilities: ["rates", "ship", "void", "track", "address_validation"],
  label_types: ["PDF", "PNG", "ZPL"],
  label_sizes: ["4x6"],
  services: UPS_SERVICES.map(({ code, name, scope }) => ({ code, name, scope })),
  endpoints: { test: "https://wwwcie.ups.com", live: "https://onlinetools.ups.com" },
  credentialsSchema: upsCredentialsSchema,
  configSchema: upsConfigSchema,
  // UPS publishes no number, only 429 "Rate Limit Exceeded"; one number per call (docs/carriers.md).
  trackingBudget: { concurrency: 2, requestsPerMinute: 120, batchSize: 1 },
  addressBatch: 1,
  addressCountries: UPS_ADDRESS_COUNTRIES,
  rate,
  ship,
  void: voidLabel,
  track,
  validateAddresses,
});
