import "server-only";
import { getAdapter } from "@/lib/carriers/registry";
import { parseInput } from "@/lib/validation";
import { ValidationError, type FieldProblem } from "@/lib/errors";
import { COMMON_CONFIG_KEYS, CommonConnectionConfig } from "@/lib/schemas/connection";

const COMMON_KEYS: ReadonlySet<string> = new Set(COMMON_CONFIG_KEYS);

/**
 * Credentials and config are checked against the schemas the carrier's module exports, so a typo in a
 * credential key is caught when the connection is saved, not at the first label purchase.
 */
export function validateCarrierSettings(
  carrierName: string,
  input: { credentials?: Record<string, unknown>; config?: Record<string, unknown> },
): { credentials?: Record<string, unknown>; config?: Record<string, unknown> } {
  const adapter = getAdapter(carrierName);
  if (!adapter) throw new ValidationError(`must be one of the supported carriers`, "carrier_name");
  const problems: FieldProblem[] = [];
  const out: { credentials?: Record<string, unknown>; config?: Record<string, unknown> } = {};
  if (input.credentials !== undefined) {
    const parsed = parseInput(adapter.credentialsSchema, input.credentials, "credentials");
    if (parsed.ok) out.credentials = parsed.data;
    else problems.push(...parsed.problems);
  }
  if (input.config !== undefined) {
    // A Set, not `key in object`: a key such as "constructor" must not count as one of ours through the prototype.
    const isCommon = ([key]: [string, unknown]) => COMMON_KEYS.has(key);
    const entries = Object.entries(input.config);
    const common = parseInput(CommonConnectionConfig.strict(), Object.fromEntries(entries.filter(isCommon)), "config");
    const specific = parseInput(
      adapter.configSchema,
      Object.fromEntries(entries.filter((e) => !isCommon(e))),
      "config",
    );
    if (!common.ok) problems.push(...common.problems);
    if (!specific.ok) problems.push(...specific.problems);
    if (common.ok && specific.ok) out.config = { ...specific.data, ...common.data };
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return out;
}
