import "server-only";
import type { CarrierRequest, CarrierResponse } from "@/lib/carriers/http/client";
import { carrierShipDate } from "@/lib/carriers/ship-date";
import {
  CarrierError,
  carrierCode,
  defineAdapter,
  type AdapterContext,
  type AdapterResult,
  type RateQuote,
  type RateRequest,
  type ShipDocument,
  type ShipRequest,
  type ShipResult,
  type TrackingResult,
  type VoidRequest,
  type VoidResult,
} from "@/lib/carriers/types";
import { isPdf, isZpl } from "@/lib/labels/check";
import {
  CANADAPOST_LABEL_SIZES,
  canadapostConfigSchema,
  canadapostCredentialsSchema,
  credentialsOf,
  readCanadapostConfig,
} from "./config";
import { errorFromResponse } from "./errors";
import { buildRateRequest, parseRateResponse } from "./rating";
import { CANADAPOST_SERVICES } from "./services";
import { buildShipRequest, parseShipResponse } from "./shipping";
import { notFound, parseTrackResponse, trackFailure, trackingPin } from "./tracking";
import { alreadyVoided, parseRefund, readDetails, refundRequestBody } from "./void";
import { MEDIA, node, parseXml, text } from "./xml";

/**
 * Canada Post (docs/canadapost.md): its XML web services over HTTP Basic auth, at `ctx.baseUrl`
 * (ct.soa-gw.canadapost.ca for test connections, soa-gw.canadapost.ca for live ones, or the carrier emulator).
 * A connection with a `contract_id` buys contract shipments; one without, non-contract shipments. One parcel per
 * shipment, one PIN per tracking call, no lookup by reference.
 */

type Send = Omit<CarrierRequest, "headers"> & { headers?: Record<string, string> };

/** Every call: Basic auth with the API key, the operation's media type, English answers. */
function send(ctx: AdapterContext, req: Send, mediaType: string): Promise<CarrierResponse> {
  const { api_username, api_password } = credentialsOf(ctx);
  return ctx.http.request({
    ...req,
    headers: {
      Accept: mediaType,
      ...(req.body !== undefined ? { "Content-Type": mediaType } : {}),
      "Accept-Language": "en-CA",
      Authorization: `Basic ${Buffer.from(`${api_username}:${api_password}`).toString("base64")}`,
      ...req.headers,
    },
  });
}

async function rate(ctx: AdapterContext, req: RateRequest): Promise<AdapterResult<RateQuote[]>> {
  const { customer_number } = credentialsOf(ctx);
  const config = readCanadapostConfig(ctx.connection.config);
  const built = buildRateRequest(req, {
    customerNumber: customer_number,
    contractId: config.contractId,
    shipDate: carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime),
  });
  const res = await send(
    ctx,
    { method: "POST", url: `${ctx.baseUrl}/rs/ship/price`, body: built.body, operation: "rate", idempotent: true },
    MEDIA.rate,
  );
  if (res.status !== 200) throw errorFromResponse(res);
  const parsed = parseRateResponse(res.text(), req.services);
  return { data: parsed.quotes, messages: [...built.messages, ...parsed.messages] };
}

/** Where a shipment lives: contract shipments under mailed-by/mobo, non-contract ones under ncshipment. */
function shipmentBase(ctx: AdapterContext): { url: string; media: string; contract: boolean } {
  const { customer_number } = credentialsOf(ctx);
  const { contractId } = readCanadapostConfig(ctx.connection.config);
  return contractId
    ? { url: `${ctx.baseUrl}/rs/${customer_number}/${customer_number}/shipment`, media: MEDIA.shipment, contract: true }
    : { url: `${ctx.baseUrl}/rs/${customer_number}/ncshipment`, media: MEDIA.ncshipment, contract: false };
}

async function ship(ctx: AdapterContext, req: ShipRequest): Promise<AdapterResult<ShipResult>> {
  const config = readCanadapostConfig(ctx.connection.config);
  if (req.label_type === "PNG" || (req.label_type === "ZPL" && !config.contractId)) {
    throw new CarrierError(
      "not_supported",
      config.contractId
        ? "Canada Post draws labels as PDF or ZPL."
        : "Canada Post draws non-contract labels as PDF only; ZPL needs a contract (config.contract_id).",
      { field: "label_type" },
    );
  }
  const { customer_number } = credentialsOf(ctx);
  const base = shipmentBase(ctx);
  const built = buildShipRequest(req, {
    customerNumber: customer_number,
    contractId: config.contractId,
    shipDate: carrierShipDate(req.ship_date, ctx.now(), config.cutoffTime),
    transmit: config.transmitShipment,
    labelSize: config.labelSize,
  });
  const res = await send(
    ctx,
    // A second send could buy a second label.
    { method: "POST", url: base.url, body: built.body, operation: "ship", idempotent: false },
    base.media,
  );
  if (res.status !== 200) throw errorFromResponse(res);
  let info: ReturnType<typeof parseShipResponse>;
  try {
    info = parseShipResponse(res.text(), req.service);
  } catch (error) {
    // Sold, but without what we need to hand it over (no PIN, no label link): cancel it if its id can be read.
    const id = soldShipmentId(res.text());
    throw id ? await unusableLabel(ctx, id, id, error) : error;
  }
  let bytes: Uint8Array;
  try {
    bytes = await fetchArtifact(ctx, info.label, req.label_type);
  } catch (error) {
    throw await unusableLabel(ctx, info.shipmentId, info.trackingPin, error);
  }
  const documents: ShipDocument[] = [];
  const messages = [...built.messages];
  if (info.invoice) {
    // The label is sold by now: an invoice we cannot keep is a warning, never a failed purchase (docs/carriers.md).
    try {
      documents.push({
        type: "commercial_invoice",
        format: "PDF",
        bytes: await fetchArtifact(ctx, info.invoice, "PDF"),
        name: "Commercial invoice",
      });
    } catch (error) {
      messages.push({
        code: carrierCode("CANADAPOST_DOCUMENT_UNREADABLE"),
        level: "warning",
        message: `Canada Post's commercial invoice could not be fetched (${error instanceof CarrierError ? error.message : "unreadable"}); print it from Canada Post's site.`,
        details: { shipment_identifier: info.shipmentId },
      });
    }
  }
  return {
    data: {
      tracking_number: info.trackingPin,
      shipment_identifier: info.shipmentId,
      label: { type: req.label_type, bytes },
      documents,
      charge: info.charge,
      meta: { ...(info.status ? { shipment_status: info.status } : {}), contract: base.contract },
    },
    messages,
  };
}

/**
 * A file behind one of the shipment's links (the `label`, docs/canadapost.md, "Labels"; the `commercialInvoice`):
 * fetched as the binary its media type names, on Canada Post's own host only (a link elsewhere is not followed: the
 * answer does not choose where we send the API key), and checked to be the file asked for.
 */
async function fetchArtifact(
  ctx: AdapterContext,
  link: { href: string; mediaType: string },
  type: "PDF" | "ZPL",
): Promise<Uint8Array> {
  let url: URL;
  try {
    url = new URL(link.href);
  } catch {
    throw new CarrierError("carrier_bad_response", "Canada Post's link is not a URL.");
  }
  if (url.origin !== new URL(ctx.baseUrl).origin) {
    throw new CarrierError("carrier_bad_response", "Canada Post's link points outside its API; not followed.");
  }
  const res = await send(ctx, { method: "GET", url: url.href, operation: "label", idempotent: true }, link.mediaType);
  if (res.status !== 200) throw errorFromResponse(res);
  const ok = type === "PDF" ? isPdf(res.body) : isZpl(res.text());
  if (!ok) throw new CarrierError("carrier_bad_response", `Canada Post's file is not the ${type} asked for.`);
  return res.body;
}

/** The `shipment-id` of a shipment answer too broken to use, or null. */
function soldShipmentId(xml: string): string | null {
  try {
    const tree = parseXml(xml);
    const info = node(tree["shipment-info"]) ?? node(tree["non-contract-shipment-info"]);
    return text(info?.["shipment-id"]);
  } catch {
    return null;
  }
}

/** A label Canada Post sold that we cannot hand over: cancel it (void or refund), and say what happened. */
async function unusableLabel(
  ctx: AdapterContext,
  shipmentId: string,
  pin: string,
  error: unknown,
): Promise<CarrierError> {
  const reason = error instanceof CarrierError ? error.message : "Canada Post's label could not be read.";
  let voided = false;
  try {
    voided = (await voidLabel(ctx, { tracking_number: pin, shipment_identifier: shipmentId })).data.voided;
  } catch {
    // Best effort: the message says the label may still need cancelling.
  }
  return new CarrierError(
    "carrier_bad_response",
    `${reason} Canada Post sold shipment ${shipmentId}; ${voided ? "it was cancelled" : "cancel it, it could not be cancelled just now"}.`,
    { shipment_identifier: shipmentId, voided },
  );
}

async function voidLabel(ctx: AdapterContext, req: VoidRequest): Promise<AdapterResult<VoidResult>> {
  const id = (req.shipment_identifier ?? "").trim();
  if (!/^[A-Za-z0-9]{1,32}$/.test(id)) {
    throw new CarrierError(
      "carrier_bad_response",
      "Canada Post cancels a label by its shipment id, which this label does not have.",
      { field: "shipment_identifier" },
    );
  }
  const base = shipmentBase(ctx);
  const url = `${base.url}/${encodeURIComponent(id)}`;
  const state = readDetails(
    await send(ctx, { method: "GET", url: `${url}/details`, operation: "void", idempotent: true }, base.media),
  );
  if (state.kind === "gone") return alreadyVoided(id);
  if (state.kind === "refund_requested") {
    return {
      data: { voided: true, refund: { status: "pending", reference: state.ticket } },
      messages: [
        {
          code: carrierCode("CANADAPOST_REFUND_REQUESTED"),
          level: "info",
          message: `A refund of shipment ${id} was requested before (service ticket ${state.ticket}).`,
        },
      ],
    };
  }
  if (base.contract && state.status !== "transmitted") {
    const res = await send(ctx, { method: "DELETE", url, operation: "void", idempotent: true }, base.media);
    if (res.status === 404) return alreadyVoided(id);
    if (res.status < 200 || res.status >= 300) throw errorFromResponse(res);
    return { data: { voided: true, refund: null }, messages: [] };
  }
  const body = refundRequestBody(base.contract, readCanadapostConfig(ctx.connection.config).refundEmail);
  // Not repeated on a lost answer: the next cancellation reads the request in the details.
  const res = await send(
    ctx,
    { method: "POST", url: `${url}/refund`, body, operation: "void", idempotent: false },
    base.media,
  );
  return parseRefund(res);
}

async function track(ctx: AdapterContext, trackingNumber: string): Promise<AdapterResult<TrackingResult>> {
  const pin = trackingPin(trackingNumber);
  // Canada Post would answer "No Pin History": no need to spend a call of the key's 20 a minute to hear so.
  if (!pin) throw notFound(trackingNumber);
  const res = await send(
    ctx,
    {
      method: "GET",
      url: `${ctx.baseUrl}/vis/track/pin/${encodeURIComponent(pin)}/detail`,
      operation: "track",
      idempotent: true,
    },
    MEDIA.track,
  );
  if (res.status === 200) return parseTrackResponse(res.text(), pin);
  throw trackFailure(res, pin);
}

export const canadapostAdapter = defineAdapter({
  carrier_name: "canadapost",
  display_name: "Canada Post",
  capabilities: ["rates", "ship", "void", "track"],
  label_types: ["PDF", "ZPL"],
  label_sizes: CANADAPOST_LABEL_SIZES,
  services: CANADAPOST_SERVICES,
  endpoints: { test: "https://ct.soa-gw.canadapost.ca", live: "https://soa-gw.canadapost.ca" },
  credentialsSchema: canadapostCredentialsSchema,
  configSchema: canadapostConfigSchema,
  // Tracking: 20 calls per API key per rolling 60 s by default (500 upgraded); one PIN per call. 18 leaves room for
  // a clerk's own lookups within the key's 20 (docs/carriers.md, "Tracking budgets").
  trackingBudget: { concurrency: 1, requestsPerMinute: 18, batchSize: 1 },
  rate,
  ship,
  void: voidLabel,
  track,
});
