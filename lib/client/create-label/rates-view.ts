import type { Message } from "@/lib/schemas/message";
import type { Rate } from "@/lib/schemas/rate";
import { formatCalendarDay, formatMoney } from "@/lib/client/format";
import { bestRate, bySpeedOnly, cheaperFirst, knowsSpeed, type RateFacts } from "@/lib/rates/rate-order";

export type RateSort = "price" | "speed";

export interface RateView {
  rate: Rate;
  cheapest: boolean;
  fastest: boolean;
}

export const rateFacts = (rate: Rate): RateFacts => ({
  totalCharge: rate.total_charge,
  transitDays: rate.transit_days,
  estimatedDelivery: rate.meta.estimated_delivery ?? null,
});

/** Grouped by currency (prices in two cannot be compared), then the one rule's cheapest first. */
const byPrice = (a: Rate, b: Rate) => a.currency.localeCompare(b.currency) || cheaperFirst(rateFacts(a), rateFacts(b));
const bySpeed = (a: Rate, b: Rate) => bySpeedOnly(rateFacts(a), rateFacts(b)) || byPrice(a, b);

/**
 * The rates in the chosen order with the cheapest and the fastest marked (one each; a tie goes to the faster, or the
 * cheaper). Prices in several currencies cannot be compared without exchange rates, so then none is "cheapest".
 */
export function rateViews(rates: readonly Rate[], sort: RateSort): RateView[] {
  const singleCurrency = new Set(rates.map((r) => r.currency)).size === 1;
  const cheapest = singleCurrency ? bestRate(rates, "cheapest", rateFacts) : undefined;
  const fastest = bestRate(
    rates.filter((r) => knowsSpeed(rateFacts(r))),
    "fastest",
    rateFacts,
  );
  return [...rates]
    .sort(sort === "price" ? byPrice : bySpeed)
    .map((rate) => ({ rate, cheapest: rate === cheapest, fastest: rate === fastest }));
}

/** "Arrives Thu, Jun 5 · 2 days", as much of it as the carrier gave. */
export function deliveryText(rate: Rate): string | null {
  const date = rate.meta.estimated_delivery ? formatCalendarDay(rate.meta.estimated_delivery) : null;
  const transit = rate.transit_days > 0 ? `${rate.transit_days} day${rate.transit_days === 1 ? "" : "s"}` : null;
  if (date && transit) return `Arrives ${date} · ${transit}`;
  if (date) return `Arrives ${date}`;
  return transit;
}

export interface ChargeLine {
  label: string;
  amount: number;
}

/** What makes the total, in the order an invoice lists it; the lines add up to `total_charge`. */
export function chargeLines(rate: Rate): ChargeLine[] {
  const lines: ChargeLine[] = [{ label: "Base", amount: rate.base_charge }];
  for (const extra of rate.extra_charges) lines.push({ label: extra.name, amount: extra.amount });
  if (rate.discount) lines.push({ label: "Discount", amount: -Math.abs(rate.discount) });
  if (rate.duties_and_taxes) lines.push({ label: "Duties and taxes", amount: rate.duties_and_taxes });
  return lines;
}

/** "Base $10.00 + Fuel surcharge $0.85 − Discount $0.50", in the rate's currency. */
export function breakdownText(rate: Rate): string {
  return chargeLines(rate)
    .map((line, i) => {
      const text = `${line.label} ${formatMoney(Math.abs(line.amount), rate.currency)}`;
      if (i === 0) return text;
      return `${line.amount < 0 ? "−" : "+"} ${text}`;
    })
    .join(" ");
}

export const serviceName = (rate: Rate) => rate.meta.service_name || rate.service;

export interface CarrierMessages {
  carrierId: string;
  carrierName: string;
  messages: Message[];
}

const LEVEL_ORDER: Record<Message["level"], number> = { error: 0, warning: 1, info: 2 };

/** Carrier messages per connection, errors first, in the order the connections first spoke. */
export function messagesByCarrier(messages: readonly Message[]): CarrierMessages[] {
  const groups = new Map<string, CarrierMessages>();
  for (const message of messages) {
    const key = `${message.carrier_name}\u0000${message.carrier_id}`;
    let group = groups.get(key);
    if (!group) {
      group = { carrierId: message.carrier_id, carrierName: message.carrier_name, messages: [] };
      groups.set(key, group);
    }
    group.messages.push(message);
  }
  for (const group of groups.values()) group.messages.sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]);
  return [...groups.values()];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What a screen reader hears when rates arrive. */
export function ratesAnnouncement(views: readonly RateView[], messages: readonly Message[]): string {
  const errors = messages.filter((m) => m.level === "error").length;
  const failed = errors ? ` ${plural(errors, "carrier error")}.` : "";
  if (views.length === 0) return `No rates.${failed}`;
  const carriers = new Set(views.map((v) => v.rate.carrier_ref)).size;
  const parts = [`${plural(views.length, "rate")} from ${plural(carriers, "carrier")}.`];
  const cheapest = views.find((v) => v.cheapest)?.rate;
  if (cheapest) {
    parts.push(`Cheapest: ${serviceName(cheapest)}, ${formatMoney(cheapest.total_charge, cheapest.currency)}.`);
  }
  const fastest = views.find((v) => v.fastest)?.rate;
  if (fastest) parts.push(`Fastest: ${serviceName(fastest)}, ${deliveryText(fastest)}.`);
  return parts.join(" ") + failed;
}
