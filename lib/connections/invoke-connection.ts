import "server-only";
import { invokeCarrier, toCarrierMessages, type InvokeOutcome } from "@/lib/carriers/invoke";
import type { AdapterContext, AdapterMessage, Capability, CarrierAdapter, CarrierMessage } from "@/lib/carriers/types";
import type { DomainContext } from "@/lib/context";
import type { DbOrTx } from "@/lib/db/tx";
import { log } from "@/lib/log";
import { carrierLedgerFor } from "./carrier-ledger";
import { toConnectionInfo } from "./load-connection";
import type { ConnectionRow } from "./present";

/** Messages in the public shape (docs/api.md, "Errors") about a stored connection, whoever raises them: carrier or service. */
export function connectionMessages(
  row: Pick<ConnectionRow, "carrierName" | "carrierId">,
  messages: AdapterMessage[],
): CarrierMessage[] {
  return toCarrierMessages({ carrier_name: row.carrierName, carrier_id: row.carrierId }, messages);
}

/**
 * invokeCarrier for a stored connection; credentials that no longer decrypt fail this connection only. Operations
 * that sell, void or look up labels pass `books`, the database an in-process carrier keeps its ledger in (never a
 * transaction: the carrier's record commits on its own, before it answers). An operation its caller paced passes
 * `pace` (pacedAgain) for the requests it makes after its first.
 */
export async function invokeConnection<T>(
  row: ConnectionRow,
  operation: Capability,
  signal: AbortSignal | undefined,
  run: (adapter: CarrierAdapter, ctx: AdapterContext) => Promise<{ data: T; messages: AdapterMessage[] }>,
  { books, pace }: { books?: DbOrTx; pace?: (withinMs: number | undefined) => Promise<void> } = {},
): Promise<InvokeOutcome<T>> {
  let info;
  try {
    info = toConnectionInfo(row);
  } catch (err) {
    log().error({ msg: "connection credentials do not decrypt", connection_id: row.id, err });
    return {
      ok: false,
      messages: connectionMessages(row, [
        {
          code: "carrier_auth_failed",
          message: "The stored credentials of this connection cannot be read; save them again.",
          level: "error",
        },
      ]),
    };
  }
  return invokeCarrier(info, operation, signal, run, books ? carrierLedgerFor(books, row) : null, pace);
}

/**
 * The pace for the further requests of a carrier call its caller has just paced (a retry after a 429, an OAuth token
 * renewal): each waits for a slot of the same budget, if it comes within `withinMs`, and for nothing else (no cancel
 * check: a call under way is not stopped halfway); undefined when the context paces nothing.
 */
export function pacedAgain(
  ctx: Pick<DomainContext, "paceCarrier">,
  connection: { id: string; config: Record<string, unknown> },
): ((withinMs: number | undefined) => Promise<void>) | undefined {
  const pace = ctx.paceCarrier;
  return pace && ((withinMs) => pace(connection, { withinMs }));
}
