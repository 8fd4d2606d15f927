import { invokeCarrier, toCarrierMessages, type InvokeOutcome } from "@/lib/carriers/invoke";
import type { AdapterContext, AdapterMessage, Capability, CarrierAdapter } from "@/lib/carriers/types";
import { log } from "@/lib/log";
import { toConnectionInfo } from "./load-connection";
import type { ConnectionRow } from "./present";

/** invokeCarrier for a stored connection; credentials that no longer decrypt fail this connection only. */
export async function invokeConnection<T>(
  row: ConnectionRow,
  operation: Capability,
  signal: AbortSignal | undefined,
  run: (adapter: CarrierAdapter, ctx: AdapterContext) => Promise<{ data: T; messages: AdapterMessage[] }>,
): Promise<InvokeOutcome<T>> {
  let info;
  try {
    info = toConnectionInfo(row);
  } catch (err) {
    log().error({ msg: "connection credentials do not decrypt", connection_id: row.id, err: (err as Error).message });
    const bare = { id: row.id, carrier_name: row.carrierName, carrier_id: row.carrierId, test_mode: row.testMode, config: {}, credentials: {} };
    return {
      ok: false,
      messages: toCarrierMessages(bare, [
        {
          code: "carrier_auth_failed",
          message: "The stored credentials of this connection cannot be read; save them again.",
          level: "error",
        },
      ]),
    };
  }
  return invokeCarrier(info, operation, signal, run);
}
