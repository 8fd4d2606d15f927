import "server-only";
import {
  CarrierError,
  defineAdapter,
  type AdapterContext,
  type Address,
  type AddressVerification,
  type AdapterResult,
  type RateQuote,
  type RateRequest,
  type Refund,
  type RefundCheck,
  type ShipRequest,
  type ShipResult,
  type TrackingResult,
} from "@/lib/carriers/types";
import { measures, oneUspsParcel, processingCategory } from "@/lib/carriers/usps/wire";
import { carrierShipDate } from "@/lib/carriers/ship-date";
import { credentialsOf, sendAuthorized, uspsCredentialsSchema } from "@/lib/carriers/usps/auth";
import { checkRefund, voidLabel } from "@/lib/carriers/usps/cancel";
import { readUspsConfig, uspsConfigSchema } from "@/lib/carriers/usps/config";
import { errorFromResponse, jsonOrNull } from "@/lib/carriers/usps/errors";
import {
  USPS_ADDRESS_COUNTRIES,
  addressQuery,
  notFoundVerdict,
  parseAddressResponse,
} from "@/lib/carriers/usps/addresses";
import { LABEL_ACCEPT, buildLabelRequest, idempotencyKey, parseLabelResponse } from "@/lib/carriers/usps/labels";
import { buildRateRequest, parseRateResponse } from "@/lib/carriers/usps/rating";
import { USPS_SERVICES } from "@/lib/carriers/usps/services";
import { notFound, parseTrackResponse, trackingNumberOf } from "@/lib/carriers/usps/tracking";

/**
 * USPS (docs/usps.md): the v3 REST APIs at `ctx.baseUrl` (apis-tem.usps.com for test connections, apis.usps.com for
 * live ones, or the carrier emulator): OAuth client credentials and a payment authorization token for labels,
 * shipping options for rates, domestic and international labels, cancellation with its refund, and tracking.
 * USPS tracks one number per call and has no lookup by reference.
 */

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

async function rate(ctx: AdapterContext, req: RateRequest): Promise<AdapterResult<RateQuote[]>> {
  const credentials = credentialsOf(ctx);
  const config = readUspsConfig(ctx.connection.config);
  const built = buildRateRequest(req, {
    credentials,
    priceType: config.priceType,
    mailingDate: carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime),
  });
  const res = await sendAuthorized(ctx, () => ({
    method: "POST",
    url: `${ctx.baseUrl}/shipments/v3/options/search`,
    ...json(built.body),
    operation: "rate",
    idempotent: true,
  }));
  if (res.status !== 200) throw errorFromResponse(res);
  // Domestic labels declare their processing category from the parcel's measures: quote that category's price.
  const category = built.international ? null : processingCategory(measures(oneUspsParcel(req.parcels)));
  const parsed = parseRateResponse(res.json(), req.services, category);
  return { data: parsed.quotes, messages: [...built.messages, ...parsed.messages] };
}

async function ship(ctx: AdapterContext, req: ShipRequest): Promise<AdapterResult<ShipResult>> {
  const config = readUspsConfig(ctx.connection.config);
  const built = buildLabelRequest(req, carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime));
  const res = await sendAuthorized(
    ctx,
    () => ({
      method: "POST",
      url: `${ctx.baseUrl}${built.path}`,
      body: JSON.stringify(built.body),
      headers: {
        "Content-Type": "application/json",
        Accept: LABEL_ACCEPT,
        "X-Idempotency-Key": idempotencyKey(req.shipment_key, built.body),
      },
      operation: "ship",
      // USPS answers the same key with the same label, but a second send is still not ours to assume safe.
      idempotent: false,
    }),
    { payment: true },
  );
  // Domestic labels answer 200, international ones 201 (their files).
  if (res.status !== 200 && res.status !== 201) throw errorFromResponse(res);
  const body = res.json();
  let parsed: ReturnType<typeof parseLabelResponse>;
  try {
    parsed = parseLabelResponse(body, {
      service: req.service,
      international: built.international,
      expected: req.label_type,
    });
  } catch (error) {
    throw await unusableLabel(ctx, body, built.international, error);
  }
  return {
    data: {
      tracking_number: parsed.trackingNumber,
      shipment_identifier: parsed.trackingNumber,
      label: { type: req.label_type, bytes: parsed.label },
      documents: parsed.documents,
      charge: parsed.charge,
      meta: {},
    },
    messages: [...built.messages, ...parsed.messages],
  };
}

/**
 * USPS sold a label whose answer we cannot use (no image, the wrong format): cancel it, so the account is not
 * charged for a label nobody can print, and say what happened.
 */
async function unusableLabel(ctx: AdapterContext, body: unknown, international: boolean, error: unknown) {
  const b = body as { trackingNumber?: unknown; internationalTrackingNumber?: unknown } | null;
  const raw = international ? b?.internationalTrackingNumber : b?.trackingNumber;
  const tn = typeof raw === "string" && raw.trim() ? raw.trim() : null;
  const reason = error instanceof CarrierError ? error.message : "USPS sent a label that could not be read.";
  if (!tn) return error instanceof CarrierError ? error : new CarrierError("carrier_bad_response", reason);
  let voided = false;
  try {
    voided = (await voidLabel(ctx, { tracking_number: tn, shipment_identifier: tn })).data.voided;
  } catch {
    // Best effort: the message below says the label may still need cancelling.
  }
  return new CarrierError(
    "carrier_bad_response",
    `${reason} USPS sold label ${tn}; ${voided ? "it was cancelled" : "cancel it, it could not be cancelled just now"}.`,
    { shipment_identifier: tn, voided },
  );
}

async function track(ctx: AdapterContext, trackingNumber: string): Promise<AdapterResult<TrackingResult>> {
  const number = trackingNumberOf(trackingNumber);
  // Not a USPS number: no need to spend a call of the hourly quota to hear so.
  if (!number) throw notFound(trackingNumber);
  const res = await sendAuthorized(ctx, () => ({
    method: "GET",
    url: `${ctx.baseUrl}/tracking/v3/tracking/${encodeURIComponent(number)}?expand=DETAIL`,
    operation: "track",
    idempotent: true,
  }));
  if (res.status === 200) return parseTrackResponse(res.json(), number);
  // 404 is USPS's "no such item"; a 400 about the number is the same for a client.
  if (res.status === 404 || res.status === 400) throw notFound(number);
  throw errorFromResponse(res);
}

/** Addresses v3: one GET per address; a 404 is USPS's verdict, not a failure. */
async function validateAddresses(
  ctx: AdapterContext,
  addresses: Address[],
): Promise<AdapterResult<AddressVerification[]>> {
  const data: AddressVerification[] = [];
  for (const address of addresses) {
    const res = await sendAuthorized(ctx, () => ({
      method: "GET",
      url: `${ctx.baseUrl}${addressQuery(address)}`,
      operation: "address_validation",
      idempotent: true,
    }));
    if (res.status === 200) data.push(parseAddressResponse(address, jsonOrNull(res)));
    else if (res.status === 404) data.push(notFoundVerdict(jsonOrNull(res)));
    else throw errorFromResponse(res);
  }
  return { data, messages: [] };
}

export const uspsAdapter = defineAdapter({
  carrier_name: "usps",
  display_name: "USPS",
  capabilities: ["rates", "ship", "void", "track", "refund_status", "address_validation"],
  addressBatch: 1,
  addressCountries: USPS_ADDRESS_COUNTRIES,
  label_types: ["PDF", "ZPL"],
  label_sizes: ["4x6"],
  services: USPS_SERVICES,
  endpoints: { test: "https://apis-tem.usps.com", live: "https://apis.usps.com" },
  credentialsSchema: uspsCredentialsSchema,
  configSchema: uspsConfigSchema,
  // USPS publishes no number; a new app gets about 60 requests an hour (docs/carriers.md, "Tracking budgets"): one a
  // minute, one number per call. `refresh_requests_per_minute` raises it once USPS raises the quota.
  trackingBudget: { concurrency: 1, requestsPerMinute: 1, batchSize: 1 },
  rate,
  ship,
  void: voidLabel,
  checkRefund: (ctx: AdapterContext, req: RefundCheck): Promise<AdapterResult<Refund>> => checkRefund(ctx, req, track),
  track,
  validateAddresses,
});
