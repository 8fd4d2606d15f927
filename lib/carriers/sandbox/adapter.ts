import "server-only";
import { createHash, randomInt } from "node:crypto";
import type {
  AdapterContext,
  AdapterMessage,
  AdapterResult,
  CarrierLedger,
  FoundShipment,
  LookupRequest,
  RateQuote,
  RateRequest,
  ShipRequest,
  ShipResult,
  TrackingResult,
  VoidRequest,
  VoidResult,
} from "@/lib/carriers/types";
import { CarrierError, carrierCode, defineAdapter } from "@/lib/carriers/types";
import { authenticate, sandboxCredentialsSchema } from "@/lib/carriers/sandbox/auth";
import {
  readSandboxConfig,
  sandboxConfigSchema,
  type SandboxConfig,
  type SandboxOperation,
} from "@/lib/carriers/sandbox/config";
import {
  alreadyVoided,
  serviceNotAvailable,
  shipmentMismatch,
  numbersExhausted,
  trackingNotFound,
  unknownService,
  voidNotAllowed,
} from "@/lib/carriers/sandbox/errors";
import { statusAt, trackingAt } from "@/lib/carriers/sandbox/events";
import { FaultInjector, loseAnswer, simulatedLatency } from "@/lib/carriers/sandbox/faults";
import { sandboxDocuments } from "@/lib/carriers/sandbox/documents";
import { sandboxLabelContent, sandboxLabelWarnings } from "@/lib/carriers/sandbox/label";
import { cityIndex, countryIndex } from "@/lib/carriers/sandbox/locations";
import { isInternational, priceService, validateShipment, zoneFor } from "@/lib/carriers/sandbox/pricing";
import { NOT_FOUND_SCENARIO, scenarioFromOption, scenarioName } from "@/lib/carriers/sandbox/scenarios";
import { findService, SANDBOX_SERVICE_CODES, SANDBOX_SERVICES, servicesFor } from "@/lib/carriers/sandbox/services";
import {
  makeTrackingNumber,
  normalizeTrackingNumber,
  parseTrackingNumber,
  type TrackingNumberParts,
} from "@/lib/carriers/sandbox/tracking-number";
import { renderLabel } from "@/lib/labels/render";

/**
 * The sandbox carrier: a complete in-process carrier behind the same interface as UPS or FedEx. It authenticates
 * (token cache), can be slow, flaky or throttled on request (config.ts), prices from a real-looking tariff
 * (pricing.ts), issues real PDF/ZPL/PNG labels (lib/labels) and tracks parcels through simulated journeys
 * (events.ts). Tracking keeps no state: the tracking number carries everything (tracking-number.ts). What it sold
 * and voided it keeps in its books (the ledger the service lends it, docs/sandbox.md "What the sandbox remembers"),
 * written before it answers, so a purchase whose answer was lost can be looked up by reference.
 */

/** How far in the future a number's purchase time may be (clock skew between servers) before it is unknown. */
const PURCHASE_CLOCK_SKEW_MS = 5 * 60_000;

export interface SandboxDependencies {
  /** [0, 1) source for `failure_rate`; tests pin it. */
  random?: () => number;
  /** 0–999 serial for new tracking numbers. */
  serial?: () => number;
}

/** "SBXS" + 16 hex: derived from the tracking number, so void can check the pair without storing it. */
export function shipmentIdentifierFor(trackingNumber: string): string {
  return (
    "SBXS" + createHash("sha256").update(`sandbox-shipment:${trackingNumber}`).digest("hex").slice(0, 16).toUpperCase()
  );
}

/** Tracking numbers carry a random serial; a second collision in one second on one route is vanishingly rare. */
const SALE_ATTEMPTS = 5;

/** The sandbox's books: lent by the service for selling, voiding and lookups; a call without them is a wiring bug. */
function books(ctx: AdapterContext): CarrierLedger {
  if (!ctx.ledger)
    throw new Error("the sandbox sells, voids and looks up labels only with a ledger (invokeConnection's books)");
  return ctx.ledger;
}

function ok<T>(data: T, messages: AdapterMessage[] = []): AdapterResult<T> {
  return { data, messages };
}

function routeText(req: { shipper: { country_code: string }; recipient: { country_code: string } }): [string, string] {
  return [req.shipper.country_code.toUpperCase(), req.recipient.country_code.toUpperCase()];
}

export function createSandboxAdapter(deps: SandboxDependencies = {}) {
  const faults = new FaultInjector(deps.random);
  const nextSerial = deps.serial ?? (() => randomInt(0, 1000));

  /** What every call goes through before the operation itself, in the order a real carrier call would. */
  async function preflight(ctx: AdapterContext, operation: SandboxOperation): Promise<SandboxConfig> {
    const config = readSandboxConfig(ctx.connection.config);
    await simulatedLatency(config.latencyMs, ctx.signal);
    await authenticate(ctx);
    faults.check(ctx.connection.id, operation, config);
    return config;
  }

  /** The parts of a number this carrier knows about at `now`; tracking_not_found otherwise. */
  function known(trackingNumber: string, now: Date): TrackingNumberParts {
    const parts = parseTrackingNumber(trackingNumber);
    if (
      !parts ||
      parts.scenario === NOT_FOUND_SCENARIO ||
      parts.purchasedAt.getTime() > now.getTime() + PURCHASE_CLOCK_SKEW_MS
    ) {
      throw trackingNotFound(trackingNumber);
    }
    return parts;
  }

  function trackOne(trackingNumber: string, now: Date, config: SandboxConfig): TrackingResult {
    return trackingAt(normalizeTrackingNumber(trackingNumber), known(trackingNumber, now), now, config.pace);
  }

  return defineAdapter({
    carrier_name: "sandbox",
    display_name: "Sandbox",
    capabilities: ["rates", "ship", "void", "track", "multi_track", "lookup"],
    label_types: ["PDF", "ZPL", "PNG"],
    label_sizes: ["4x6"],
    services: SANDBOX_SERVICES.map(({ code, name, scope }) => ({ code, name, scope })),
    credentialsSchema: sandboxCredentialsSchema,
    configSchema: sandboxConfigSchema,
    // Offline, so no published limit: generous, and a test injects throttling with `rate_limit_every`.
    trackingBudget: { concurrency: 4, requestsPerMinute: 6000, batchSize: 30 },

    simulatedPace(config: Record<string, unknown>): number {
      try {
        return readSandboxConfig(config).pace;
      } catch {
        return 1;
      }
    },

    async rate(ctx: AdapterContext, req: RateRequest): Promise<AdapterResult<RateQuote[]>> {
      const config = await preflight(ctx, "rates");
      validateShipment(req.shipper, req.recipient, req.parcels);
      const [origin, destination] = routeText(req);
      const onRoute = servicesFor(isInternational(req.shipper, req.recipient));
      const messages: AdapterMessage[] = [];
      let selected = onRoute;
      if (req.services.length > 0) {
        const requested = new Set(req.services);
        const ours = SANDBOX_SERVICE_CODES.filter((c) => requested.has(c));
        if (ours.length === 0) throw unknownService(req.services.join(", "), SANDBOX_SERVICE_CODES);
        selected = onRoute.filter((s) => requested.has(s.code));
        const offRoute = ours.filter((c) => !selected.some((s) => s.code === c));
        if (selected.length === 0)
          throw serviceNotAvailable(
            offRoute.join(", "),
            origin,
            destination,
            onRoute.map((s) => s.code),
          );
        for (const code of offRoute) {
          messages.push({
            code: carrierCode("SBX_SERVICE_NOT_AVAILABLE"),
            level: "warning",
            message: `Service ${code} is not available from ${origin} to ${destination}.`,
            details: { service: code },
          });
        }
      }
      const settings = { fuelSurchargePercent: config.fuelSurchargePercent, now: ctx.now() };
      return ok(
        selected.map((service) => priceService(service, req, settings)),
        messages,
      );
    },

    async ship(ctx: AdapterContext, req: ShipRequest): Promise<AdapterResult<ShipResult>> {
      const config = await preflight(ctx, "ship");
      validateShipment(req.shipper, req.recipient, req.parcels);
      const service = findService(req.service);
      if (!service) throw unknownService(req.service, SANDBOX_SERVICE_CODES);
      const international = isInternational(req.shipper, req.recipient);
      const onRoute = servicesFor(international);
      if (!onRoute.includes(service)) {
        const [origin, destination] = routeText(req);
        throw serviceNotAvailable(
          service.code,
          origin,
          destination,
          onRoute.map((s) => s.code),
        );
      }
      const scenario = scenarioFromOption(req.options.sandbox_scenario);
      const now = ctx.now();
      const charge = priceService(service, req, { fuelSurchargePercent: config.fuelSurchargePercent, now });

      const originCountry = countryIndex(req.shipper.country_code);
      const destinationCountry = countryIndex(req.recipient.country_code);
      const ledger = books(ctx);
      for (let attempt = 0; attempt < SALE_ATTEMPTS; attempt++) {
        const trackingNumber = makeTrackingNumber({
          purchasedAt: now,
          scenario,
          international,
          originCountry,
          originCity: cityIndex(originCountry, req.shipper),
          destinationCountry,
          destinationCity: cityIndex(destinationCountry, req.recipient),
          serial: nextSerial(),
        });
        const content = sandboxLabelContent(req, service, trackingNumber, zoneFor(req.shipper, req.recipient), now);
        const sale: FoundShipment = {
          tracking_number: trackingNumber,
          shipment_identifier: shipmentIdentifierFor(trackingNumber),
          label: { type: req.label_type, bytes: await renderLabel(content, req.label_type) },
          documents: await sandboxDocuments(req, service, trackingNumber, now),
          charge,
          meta: { service_name: service.name, scenario: scenarioName(scenario) },
          reference: req.reference,
          shipment_key: req.shipment_key,
          sold_at: now,
        };
        // On the books before the answer leaves: a sale whose answer is lost is still a sale (findShipments).
        if (!(await ledger.recordSale(sale))) continue;
        await loseAnswer("ship", config, ctx.signal);
        const { reference: _reference, shipment_key: _key, sold_at: _soldAt, ...shipped } = sale;
        return ok(shipped, await sandboxLabelWarnings(content, req));
      }
      throw numbersExhausted();
    },

    async void(ctx: AdapterContext, req: VoidRequest): Promise<AdapterResult<VoidResult>> {
      const config = await preflight(ctx, "void");
      const now = ctx.now();
      const parts = known(req.tracking_number, now);
      const normalized = normalizeTrackingNumber(req.tracking_number);
      if (req.shipment_identifier && req.shipment_identifier !== shipmentIdentifierFor(normalized)) {
        throw shipmentMismatch(req.shipment_identifier, normalized);
      }
      const ledger = books(ctx);
      // Before the pickup check: a label voided earlier stays voided, however far its journey would have gone since.
      const onBooks = await ledger.findSale(normalized);
      if (onBooks?.voided_at)
        return ok({ voided: true as const, refund: null }, [alreadyVoided(normalized, onBooks.voided_at)]);
      if (statusAt(parts, now, config.pace) !== "pending") throw voidNotAllowed(normalized);
      // A number the books do not hold (made by hand with makeTrackingNumber) voids statelessly, as it always has.
      if (onBooks) {
        const voidedAt = await ledger.recordVoid(normalized, now);
        if (voidedAt && voidedAt.getTime() !== now.getTime()) {
          return ok({ voided: true as const, refund: null }, [alreadyVoided(normalized, voidedAt)]);
        }
      }
      await loseAnswer("void", config, ctx.signal);
      return ok({ voided: true as const, refund: null });
    },

    // The books are the sandbox's own records, so an empty answer means nothing was sold under the reference.
    async findShipments(ctx: AdapterContext, req: LookupRequest): Promise<AdapterResult<FoundShipment[]>> {
      await preflight(ctx, "lookup");
      return ok(await books(ctx).liveSales(req.reference, req.sold_since));
    },

    async track(ctx: AdapterContext, trackingNumber: string): Promise<AdapterResult<TrackingResult>> {
      const config = await preflight(ctx, "track");
      return ok(trackOne(trackingNumber, ctx.now(), config));
    },

    // One call for many numbers (it counts once toward rate limits); a bad number fails alone.
    async trackMany(
      ctx: AdapterContext,
      trackingNumbers: string[],
    ): Promise<AdapterResult<Record<string, TrackingResult | CarrierError>>> {
      const config = await preflight(ctx, "track");
      const now = ctx.now();
      const results: Record<string, TrackingResult | CarrierError> = {};
      for (const n of trackingNumbers) {
        try {
          results[n] = trackOne(n, now, config);
        } catch (error) {
          if (!(error instanceof CarrierError)) throw error;
          results[n] = error;
        }
      }
      return ok(results);
    },
  });
}

export const sandboxAdapter = createSandboxAdapter();
