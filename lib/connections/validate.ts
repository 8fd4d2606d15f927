import "server-only";
import { getAdapter } from "@/lib/carriers/registry";
import { issuesToProblems } from "@/lib/validation";
import { ValidationError, type FieldProblem } from "@/lib/errors";
import { COMMON_CONFIG_KEYS, CommonConnectionConfig } from "@/lib/schemas/connection";

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
    const parsed = adapter.credentialsSchema.safeParse(input.credentials);
    if (parsed.success) out.credentials = parsed.data;
    else problems.push(...issuesToProblems(parsed.error.issues, "credentials"));
  }
  if (input.config !== undefined) {
    const commonKeys = Object.fromEntries(
      Object.entries(input.config).filter(([k]) => (COMMON_CONFIG_KEYS as string[]).includes(k)),
    );
    const carrierKeys = Object.fromEntries(Object.entries(input.config).filter(([k]) => !(k in commonKeys)));
    const common = CommonConnectionConfig.strict().safeParse(commonKeys);
    const specific = adapter.configSchema.safeParse(carrierKeys);
    if (!common.success) problems.push(...issuesToProblems(common.error.issues, "config"));
    if (!specific.success) problems.push(...issuesToProblems(specific.error.issues, "config"));
    if (common.success && specific.success) out.config = { ...specific.data, ...common.data };
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return out;
}
