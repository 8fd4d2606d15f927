import { ApiProblem, untilAnswered, type ApiRequest } from "@/lib/client/api";
import type { Message } from "@/lib/schemas/message";
import type { Rate } from "@/lib/schemas/rate";
import type { Shipment } from "@/lib/schemas/shipment";
import { buyKey, createKey, type PurchaseAttempt } from "./purchase-attempt";
import { cents } from "@/lib/rates/rate-order";

export type Api = <T>(path: string, request: ApiRequest) => Promise<T>;

export type BuyResult =
  /** `previous` is the price shown when it differed and the clerk accepted the new one. */
  | { kind: "bought"; shipment: Shipment; rate: Rate; previous: Rate | null }
  /** Stopped before buying: the carrier now asks another price for the chosen service. */
  | { kind: "price_changed"; shipment: Shipment; rate: Rate; chosen: Rate }
  /** The chosen service is no longer offered for this shipment. */
  | { kind: "service_gone"; shipment: Shipment; messages: Message[] };

export class BuyError extends Error {
  constructor(
    readonly stage: "create" | "buy",
    readonly problem: unknown,
    /** The draft the purchase was for, when it exists (a link for "outcome unknown"). */
    readonly shipmentId: string | null,
  ) {
    super(problem instanceof Error ? problem.message : "The purchase failed.");
    this.name = "BuyError";
  }
}

const samePrice = (a: Rate, b: Rate) => a.currency === b.currency && cents(a.total_charge) === cents(b.total_charge);

export interface BuyInput {
  api: Api;
  attempt: PurchaseAttempt;
  /** The `POST /v1/shipments` body the attempt's `body` was made from. */
  body: unknown;
  chosen: Rate;
  /** Called once the draft exists, so a retry of this attempt buys on it instead of creating another. */
  onCreated: (shipment: Shipment) => void;
  /** Progress for the button: creating the shipment (the carrier rates again), then buying. */
  onStage?: (stage: "create" | "buy") => void;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Buys the chosen rate: creates the shipment for that connection and service (`<key>:create`), finds the shipment's
 * own rate for the service and purchases it (`<key>:buy`). The carrier rates again at creation; when its price moved
 * the purchase stops and says so, because the clerk chose a price, not only a service.
 */
export async function buyLabel(input: BuyInput): Promise<BuyResult> {
  const { api, attempt, body, chosen, onCreated, onStage, sleep } = input;
  let shipment = attempt.shipment;
  if (!shipment) {
    onStage?.("create");
    try {
      shipment = await untilAnswered(
        () => api<Shipment>("/v1/shipments", { method: "POST", body, idempotencyKey: createKey(attempt) }),
        sleep,
      );
    } catch (error) {
      throw new BuyError("create", error, null);
    }
    onCreated(shipment);
  }
  const created = shipment;
  const rate = created.rates.find((r) => r.service === chosen.service && r.carrier_ref === chosen.carrier_ref);
  if (!rate) return { kind: "service_gone", shipment: created, messages: created.messages };
  if (!samePrice(rate, chosen) && attempt.acceptedRateId !== rate.id) {
    return { kind: "price_changed", shipment: created, rate, chosen };
  }
  onStage?.("buy");
  try {
    const bought = await untilAnswered(
      () =>
        api<Shipment>(`/v1/shipments/${encodeURIComponent(created.id ?? "")}/purchase`, {
          method: "POST",
          body: { selected_rate_id: rate.id },
          idempotencyKey: buyKey(attempt),
        }),
      sleep,
    );
    return { kind: "bought", shipment: bought, rate, previous: samePrice(rate, chosen) ? null : chosen };
  } catch (error) {
    throw new BuyError("buy", error, created.id);
  }
}

/** The purchase's carrier messages that say its outcome is unknown (docs/api.md, "When an answer is lost"). */
export function outcomeUnknown(error: unknown): boolean {
  const cause = error instanceof BuyError ? error.problem : error;
  if (!(cause instanceof ApiProblem)) return false;
  return (
    cause.errors.some((e) => e.code === "purchase_outcome_unknown") ||
    cause.messages.some((m) => m.code === "purchase_outcome_unknown")
  );
}
