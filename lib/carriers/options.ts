import { CARRIER_NAMES, type CarrierName } from "@/lib/carriers/names";
import type { AdapterMessage } from "@/lib/carriers/types";
import { TYPED_OPTION_KEYS } from "@/lib/schemas/options";

/**
 * What an adapter says about `options` it will not act on, so that none is dropped silently: a key another carrier
 * owns (`fedex_one_rate` sent to UPS) or that no carrier knows (`email_notification`) is a `not_supported` warning
 * naming it in `details.field`. Typed options a carrier has no equivalent for are the adapter's to report, with the
 * reason; `customs` is the 2021.7 place of the customs declaration (lib/schemas/customs.ts reads it).
 */

const SERVICE_WIDE = new Set<string>([...TYPED_OPTION_KEYS, "customs"]);

export function unusedOptionWarnings(
  carrier: CarrierName,
  options: Record<string, unknown>,
  own: readonly string[],
): AdapterMessage[] {
  const mine = new Set(own);
  const messages: AdapterMessage[] = [];
  for (const key of Object.keys(options)) {
    if (SERVICE_WIDE.has(key) || mine.has(key) || options[key] === null) continue;
    const owner = CARRIER_NAMES.find((c) => key.startsWith(`${c}_`));
    messages.push({
      code: "not_supported",
      level: "warning",
      message:
        owner && owner !== carrier
          ? `options.${key} is a ${owner} option; ${carrier} ignores it.`
          : `options.${key} is not an option ${carrier} knows; it was ignored.`,
      details: { field: `options.${key}` },
    });
  }
  return messages;
}

/** A typed option this carrier or service cannot honour: asked for, not sent, said so. */
export function optionNotHonoured(key: string, message: string): AdapterMessage {
  return { code: "not_supported", level: "warning", message, details: { field: `options.${key}` } };
}
