import "server-only";
import type { ConnectionInfo } from "@/lib/carriers/types";
import { decryptJson } from "./crypto";
import type { ConnectionRow } from "./present";

/** The connection as an adapter needs it: credentials decrypted in memory, for the duration of one call. */
export function toConnectionInfo(row: ConnectionRow): ConnectionInfo {
  return {
    id: row.id,
    carrier_name: row.carrierName,
    carrier_id: row.carrierId,
    test_mode: row.testMode,
    config: row.config,
    credentials: row.credentialsEncrypted ? decryptJson<Record<string, unknown>>(row.credentialsEncrypted, row.id) : {},
  };
}
