import "server-only";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { createCarrierHttp } from "./http/client";
import { withDeadline } from "./http/deadline";
import { sharedTokenCache } from "./http/token-cache";
import { getAdapter } from "./registry";
import {
  CarrierError,
  type AdapterContext,
  type AdapterMessage,
  type Capability,
  type CarrierAdapter,
  type CarrierLedger,
  type CarrierMessage,
  type ConnectionInfo,
} from "./types";

export type InvokeOutcome<T> =
  { ok: true; data: T; messages: CarrierMessage[] } | { ok: false; messages: CarrierMessage[] };

export function toCarrierMessages(
  connection: Pick<ConnectionInfo, "carrier_name" | "carrier_id">,
  messages: AdapterMessage[],
): CarrierMessage[] {
  return messages.map((m) => ({
    carrier_name: connection.carrier_name,
    carrier_id: connection.carrier_id,
    code: m.code,
    message: m.message,
    level: m.level,
    details: m.details ?? {},
  }));
}

/**
 * The API base an adapter calls for a connection: the carrier's test or live environment by `test_mode`, or the
 * operator's carrier emulator. Never read from the connection, so no client can aim the server at a URL.
 */
function baseUrlFor(adapter: Pick<CarrierAdapter, "carrier_name" | "endpoints">, testMode: boolean): string {
  if (!adapter.endpoints) return "";
  const emulator = env().CARRIER_EMULATOR_URL;
  if (emulator) return `${emulator}/${adapter.carrier_name}`;
  return testMode ? adapter.endpoints.test : adapter.endpoints.live;
}

export function deadlineFor(connection: Pick<ConnectionInfo, "config">): number {
  const configured = connection.config.deadline_ms;
  return typeof configured === "number" ? configured : env().CARRIER_DEADLINE_MS;
}

/**
 * Runs one adapter operation for one connection under its deadline and turns every way it can fail into
 * `messages`, so a failing carrier never takes a request (or the other carriers of a fan-out) down with it.
 * `ledger` is lent to an in-process carrier for the operations that sell, void or look up labels; `pace` paces the
 * operation's requests after its first (createCarrierHttp).
 */
export async function invokeCarrier<T>(
  connection: ConnectionInfo,
  operation: Capability,
  parent: AbortSignal | undefined,
  run: (adapter: CarrierAdapter, ctx: AdapterContext) => Promise<{ data: T; messages: AdapterMessage[] }>,
  ledger: CarrierLedger | null = null,
  pace?: (withinMs: number | undefined) => Promise<void>,
): Promise<InvokeOutcome<T>> {
  const adapter = getAdapter(connection.carrier_name);
  if (!adapter) {
    return {
      ok: false,
      messages: toCarrierMessages(connection, [
        { code: "not_supported", message: `Carrier ${connection.carrier_name} is not supported.`, level: "error" },
      ]),
    };
  }
  const started = performance.now();
  // One line per carrier operation, whatever the transport (the HTTP client adds one per attempt): ids and codes only.
  const done = (outcome: string, messages: AdapterMessage[]) =>
    log().info({
      msg: "carrier_operation",
      carrier_name: connection.carrier_name,
      carrier_id: connection.carrier_id,
      connection_id: connection.id,
      operation,
      outcome,
      codes: messages.map((m) => m.code),
      duration_ms: Math.round(performance.now() - started),
    });
  try {
    const result = await withDeadline(
      deadlineFor(connection),
      parent,
      (signal) =>
        run(adapter, {
          connection,
          signal,
          tokens: sharedTokenCache,
          now: () => new Date(),
          ledger,
          baseUrl: baseUrlFor(adapter, connection.test_mode),
          http: createCarrierHttp({
            carrier_name: connection.carrier_name,
            carrier_id: connection.carrier_id,
            display_name: adapter.display_name,
            signal,
            pace,
          }),
        }),
      adapter.display_name,
    );
    done("ok", result.messages);
    return { ok: true, data: result.data, messages: toCarrierMessages(connection, result.messages) };
  } catch (err) {
    if (err instanceof CarrierError) {
      done("error", err.messages);
      return { ok: false, messages: toCarrierMessages(connection, err.messages) };
    }
    // An adapter bug: logged with its stack for us, a plain message for the client.
    log().error({
      msg: "carrier adapter failed",
      carrier_name: connection.carrier_name,
      carrier_id: connection.carrier_id,
      err,
    });
    return {
      ok: false,
      messages: toCarrierMessages(connection, [
        {
          code: "carrier_bad_response",
          message: `${adapter.display_name} answered in a way we could not process.`,
          level: "error",
        },
      ]),
    };
  }
}
