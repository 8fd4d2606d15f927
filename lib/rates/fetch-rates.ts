import "server-only";
import type { DomainContext } from "@/lib/context";
import type { Address, CarrierMessage, Parcel } from "@/lib/carriers/types";
import { selectConnections } from "@/lib/connections/select-connections";
import { invokeConnection, pacedAgain } from "@/lib/connections/invoke-connection";
import { CarrierFailureError } from "@/lib/errors";
import { quotedRate, type RateFields } from "./present-rate";
import { requestedShipDate } from "./ship-date";

export interface RatesInput {
  shipper: Address;
  recipient: Address;
  parcels: Parcel[];
  carrier_ids: string[];
  services: string[];
  options: Record<string, unknown>;
}

export interface RatesOutcome {
  /** Cheapest first, then fastest. */
  rates: RateFields[];
  messages: CarrierMessage[];
  /** Some connections failed beside others that answered (their messages are in `messages`). */
  partial: boolean;
  /** True when every connection asked is in test mode: what a shipment rated by them records. */
  testMode: boolean;
}

/**
 * Asks every selected connection at once (docs/api.md, "Proxy mode"); each call has its own deadline, so the
 * slowest carrier costs its deadline, not the sum of all of them. Every connection failing is a carrier failure.
 */
export async function fetchRates({ ctx, input }: { ctx: DomainContext; input: RatesInput }): Promise<RatesOutcome> {
  const shipDate = requestedShipDate(input.shipper, input.options, new Date());
  const connections = await selectConnections({ ctx, carrierIds: input.carrier_ids, capability: "rates" });
  const request = {
    shipper: input.shipper,
    recipient: input.recipient,
    parcels: input.parcels,
    services: input.services,
    options: input.options,
    ship_date: shipDate,
  };
  const outcomes = await Promise.all(
    connections.map(async (row) => {
      await ctx.paceCarrier?.(row);
      return {
        row,
        outcome: await invokeConnection(row, "rates", ctx.signal, (adapter, actx) => adapter.rate(actx, request), {
          pace: pacedAgain(ctx, row),
        }),
      };
    }),
  );
  const rates: RateFields[] = [];
  const messages: CarrierMessage[] = [];
  let failed = 0;
  for (const { row, outcome } of outcomes) {
    messages.push(...outcome.messages);
    if (!outcome.ok) failed++;
    else for (const quote of outcome.data) rates.push(quotedRate(quote, row));
  }
  if (failed === connections.length) throw new CarrierFailureError(messages);
  rates.sort((a, b) => a.totalCharge - b.totalCharge || a.transitDays - b.transitDays);
  return { rates, messages, partial: failed > 0, testMode: connections.every((c) => c.testMode) };
}
