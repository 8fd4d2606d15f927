import "server-only";
import type { DomainContext } from "@/lib/context";
import type { Message } from "@/lib/schemas/message";
import type { ProxyRatesRequest } from "@/lib/schemas/proxy";
import type { Rate } from "@/lib/schemas/rate";
import { fetchRates } from "./fetch-rates";
import { presentRate } from "./present-rate";

/** Proxy rates: every selected carrier's rates, nothing stored. `partial` when some carriers failed beside others. */
export async function proxyRates({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: ProxyRatesRequest;
}): Promise<{ messages: Message[]; rates: Rate[]; partial: boolean }> {
  const { rates, messages, partial } = await fetchRates({ ctx, input });
  return { messages, rates: rates.map(presentRate), partial };
}
