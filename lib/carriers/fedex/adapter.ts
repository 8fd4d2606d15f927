import type {
  Address,
  AddressVerification,
  AdapterContext,
  AdapterMessage,
  AdapterResult,
  RateQuote,
  RateRequest,
  ShipRequest,
  ShipResult,
  TrackingResult,
  VoidRequest,
  VoidResult,
} from "@/lib/carriers/types";
import { CarrierError, defineAdapter } from "@/lib/carriers/types";
import {
  buildResolveRequest,
  parseResolveOutput,
  RESOLVE_BATCH,
  RESOLVE_PATH,
} from "@/lib/carriers/fedex/address-validation";
import { fedexCall, fedexCredentials, outputOf } from "@/lib/carriers/fedex/api";
import { buildCancelRequest, parseCancelAnswer } from "@/lib/carriers/fedex/cancel";
import { GROUND_ECONOMY, groundEconomyNeedsHub } from "@/lib/carriers/fedex/conditional";
import {
  FEDEX_LABEL_SIZES,
  fedexConfigSchema,
  fedexCredentialsSchema,
  readFedexConfig,
} from "@/lib/carriers/fedex/config";
import { signableQuotes } from "@/lib/carriers/fedex/options";
import { buildRateRequest, parseRateOutput } from "@/lib/carriers/fedex/rating";
import { carrierShipDate } from "@/lib/carriers/ship-date";
import { FEDEX_SERVICES } from "@/lib/carriers/fedex/services";
import { buildShipRequest, parseShipOutput } from "@/lib/carriers/fedex/ship";
import { buildTrackRequest, parseTrackOutput, TRACK_BATCH_SIZE } from "@/lib/carriers/fedex/tracking";
import { crossesCustomsBorder } from "@/lib/carriers/customs-territory";

/**
 * FedEx through its REST APIs (developer.fedex.com): OAuth client credentials, Rate quotes, Ship, Cancel, Track and
 * Address Validation (docs/fedex.md). Each operation builds FedEx's request from ours (rating.ts, ship.ts, cancel.ts,
 * tracking.ts, address-validation.ts),
 * sends it through api.ts (token, 401 retry, gzip) and reads the answer back.
 */

async function track(ctx: AdapterContext, numbers: string[]) {
  const answer = await fedexCall(ctx, {
    operation: "track",
    method: "POST",
    path: "/track/v1/trackingnumbers",
    body: buildTrackRequest(numbers),
    idempotent: true,
    keys: "track",
  });
  return parseTrackOutput(outputOf(answer), numbers);
}

/** ship-api.json has no field for what to do with an undeliverable parcel: the client's wish is said to be unsent. */
function unsentNonDelivery(req: ShipRequest): AdapterMessage[] {
  const wish = crossesCustomsBorder(req.shipper.country_code, req.recipient.country_code)
    ? req.customs?.non_delivery
    : null;
  if (!wish) return [];
  return [
    {
      code: "not_supported",
      level: "warning",
      message: `FedEx's ship request takes no instruction for an undeliverable parcel; customs.non_delivery "${wish}" was not sent, and FedEx handles it by its own terms.`,
      details: { field: "customs.non_delivery" },
    },
  ];
}

export const fedexAdapter = defineAdapter({
  carrier_name: "fedex",
  display_name: "FedEx",
  capabilities: ["rates", "ship", "void", "track", "multi_track", "address_validation"],
  // Up to 100 addresses a call, of any country: FedEx's answer says per address whether it checks that country.
  addressBatch: RESOLVE_BATCH,
  label_types: ["PDF", "PNG", "ZPL"],
  label_sizes: FEDEX_LABEL_SIZES,
  services: FEDEX_SERVICES.map(({ code, name, scope }) => ({ code, name, scope })),
  endpoints: { test: "https://apis-sandbox.fedex.com", live: "https://apis.fedex.com" },
  credentialsSchema: fedexCredentialsSchema,
  configSchema: fedexConfigSchema,
  // 1,400 transactions per 10 s per project, shared with rating and shipping: tracking takes a modest share.
  trackingBudget: { concurrency: 4, requestsPerMinute: 1200, batchSize: TRACK_BATCH_SIZE },

  rate: async (ctx: AdapterContext, req: RateRequest): Promise<AdapterResult<RateQuote[]>> => {
    const config = readFedexConfig(ctx.connection.config);
    const shipDate = carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime);
    // Ground Economy asked for by name without the hub to sell it: said, rather than an unexplained empty answer.
    const noHub = config.smartPostHubId === null && req.services.includes(GROUND_ECONOMY);
    if (noHub && req.services.every((s) => s === GROUND_ECONOMY)) throw groundEconomyNeedsHub();
    const { body, messages: sent } = buildRateRequest(req, {
      accountNumber: fedexCredentials(ctx).account_number,
      pickupType: config.pickupType,
      shipDate,
      smartPostHubId: config.smartPostHubId,
    });
    const answer = await fedexCall(ctx, {
      operation: "rate",
      method: "POST",
      path: "/rate/v1/rates/quotes",
      body,
      idempotent: true,
    });
    const { quotes, messages } = parseRateOutput(
      outputOf(answer),
      shipDate,
      req.services,
      config.smartPostHubId !== null,
    );
    const unsold = noHub ? [{ ...groundEconomyNeedsHub().messages[0]!, level: "warning" as const }] : [];
    const signable = signableQuotes(quotes, req.options);
    return { data: signable.quotes, messages: [...sent, ...messages, ...signable.messages, ...unsold] };
  },

  ship: async (ctx: AdapterContext, req: ShipRequest): Promise<AdapterResult<ShipResult>> => {
    const config = readFedexConfig(ctx.connection.config);
    const { body, messages: sent } = buildShipRequest(req, {
      accountNumber: fedexCredentials(ctx).account_number,
      pickupType: config.pickupType,
      labelStock: config.labelStock,
      shipDate: carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime),
      smartPostHubId: config.smartPostHubId,
    });
    // Not idempotent: a ship call repeated after a lost answer can buy a second label.
    const answer = await fedexCall(ctx, {
      operation: "ship",
      method: "POST",
      path: "/ship/v1/shipments",
      body,
      idempotent: false,
    });
    const { result, messages } = await parseShipOutput(outputOf(answer), req);
    return { data: result, messages: [...sent, ...messages, ...unsentNonDelivery(req)] };
  },

  void: async (ctx: AdapterContext, req: VoidRequest): Promise<AdapterResult<VoidResult>> => {
    const answer = await fedexCall(ctx, {
      operation: "void",
      method: "PUT",
      path: "/ship/v1/shipments/cancel",
      body: buildCancelRequest(req, fedexCredentials(ctx).account_number),
      idempotent: true,
    });
    return { data: { voided: true as const, refund: null }, messages: parseCancelAnswer(answer, req) };
  },

  track: async (ctx: AdapterContext, trackingNumber: string): Promise<AdapterResult<TrackingResult>> => {
    const { results, messages } = await track(ctx, [trackingNumber]);
    const result = results[trackingNumber]!;
    if (result instanceof CarrierError) throw result;
    return { data: result, messages };
  },

  // Batches of 100 (the domain already splits by addressBatch; a longer list given directly is split here too).
  validateAddresses: async (
    ctx: AdapterContext,
    addresses: Address[],
  ): Promise<AdapterResult<AddressVerification[]>> => {
    const data: AddressVerification[] = [];
    const messages: AdapterMessage[] = [];
    for (let i = 0; i < addresses.length; i += RESOLVE_BATCH) {
      const batch = addresses.slice(i, i + RESOLVE_BATCH);
      const answer = await fedexCall(ctx, {
        operation: "address_validation",
        method: "POST",
        path: RESOLVE_PATH,
        body: buildResolveRequest(batch),
        idempotent: true,
      });
      const parsed = parseResolveOutput(batch, outputOf(answer));
      data.push(...parsed.data);
      messages.push(
        ...parsed.messages.map((m) =>
          typeof m.details?.index === "number" ? { ...m, details: { index: m.details.index + i } } : m,
        ),
      );
    }
    return { data, messages };
  },

  // FedEx takes 30 numbers a call; a longer list is sent in batches, one after the other (they share a quota).
  trackMany: async (
    ctx: AdapterContext,
    trackingNumbers: string[],
  ): Promise<AdapterResult<Record<string, TrackingResult | CarrierError>>> => {
    const results: Record<string, TrackingResult | CarrierError> = {};
    const messages: AdapterMessage[] = [];
    for (let i = 0; i < trackingNumbers.length; i += TRACK_BATCH_SIZE) {
      const batch = await track(ctx, trackingNumbers.slice(i, i + TRACK_BATCH_SIZE));
      Object.assign(results, batch.results);
      messages.push(...batch.messages);
    }
    return { data: results, messages };
  },
});
