import type { DomainContext } from "@/lib/context";
import type { Address, Parcel } from "@/lib/carriers/types";
import { selectConnections } from "@/lib/connections/select-connections";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import type { Message } from "@/lib/schemas/message";
import type { Rate } from "@/lib/schemas/rate";
import { presentRate } from "./present-rate";

export interface RatesInput {
  shipper: Address;
  recipient: Address;
  parcels: Parcel[];
  carrier_ids: string[];
  services: string[];
  options: Record<string, unknown>;
}

export interface RatesOutcome {
  rates: Rate[];
  messages: Message[];
  /** Connections asked, and how many of them failed outright. */
  asked: number;
  failed: number;
  /** True when every connection asked is in test mode: what a shipment rated by them records. */
  testMode: boolean;
}

/**
 * Asks every selected connection at once (CONTRACT §5); each call has its own deadline, so the slowest
 * carrier costs its deadline, not the sum of all of them. Cheapest first.
 */
export async function fetchRates({ ctx, input }: { ctx: DomainContext; input: RatesInput }): Promise<RatesOutcome> {
  const connections = await selectConnections(ctx.db, ctx.org.id, input.carrier_ids, "rates");
  const request = {
    shipper: input.shipper,
    recipient: input.recipient,
    parcels: input.parcels,
    services: input.services,
    options: input.options,
  };
  const outcomes = await Promise.all(
    connections.map(async (row) => ({
      row,
      outcome: await invokeConnection(row, "rates", ctx.signal, (adapter, actx) => adapter.rate(actx, request)),
    })),
  );
  const rates: Rate[] = [];
  const messages: Message[] = [];
  let failed = 0;
  for (const { row, outcome } of outcomes) {
    messages.push(...outcome.messages);
    if (!outcome.ok) failed++;
    else for (const quote of outcome.data) rates.push(presentRate(quote, row));
  }
  rates.sort((a, b) => a.total_charge - b.total_charge || a.transit_days - b.transit_days);
  return { rates, messages, asked: connections.length, failed, testMode: connections.every((c) => c.testMode) };
}
