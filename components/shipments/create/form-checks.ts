import type { Resolver } from "react-hook-form";
import type { CreateLabelOutput, CreateLabelValues } from "@/lib/client/create-label/form-schema";
import { afterPageLoad } from "@/lib/client/after-load";

/*
 * The create-label form's checks (lib/client/create-label/form-schema.ts): zod with the API's own request schemas,
 * about 30 kB gzipped, the biggest part of the form's script. The page loads them after itself: the form checks
 * nothing before the clerk asks for rates, leaves a field with a problem shown, or buys.
 */

async function importChecks() {
  const [{ zodResolver }, schema] = await Promise.all([
    import("@hookform/resolvers/zod"),
    import("@/lib/client/create-label/form-schema"),
  ]);
  return {
    resolver: zodResolver(schema.CreateLabelForm, schema.formParseOptions),
    buyProblems: schema.buyProblems,
    shipmentRequest: schema.shipmentRequest,
  };
}

let loading: ReturnType<typeof importChecks> | null = null;

/** The checks, loaded once; a failed load (the network away) is tried again by the next caller. */
export function loadFormChecks(): ReturnType<typeof importChecks> {
  loading ??= importChecks().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** react-hook-form's resolver: the form's schema, once it has loaded. */
export const createLabelResolver: Resolver<CreateLabelValues, unknown, CreateLabelOutput> = async (
  values,
  context,
  options,
) => (await loadFormChecks()).resolver(values, context, options);

/**
 * Starts loading the checks once the page has loaded (after its load event, so the page is not held up by them), so
 * that the clerk's first check rarely waits. Returns the cleanup for an effect.
 */
export function preloadFormChecks(): () => void {
  return afterPageLoad(() => void loadFormChecks().catch(() => undefined));
}
