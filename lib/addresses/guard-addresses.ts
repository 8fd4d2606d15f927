import "server-only";
import type { CarrierName } from "@/lib/carriers/names";
import type { DomainContext } from "@/lib/context";
import { AddressInvalidError, type FieldProblem } from "@/lib/errors";
import type { AddressToCheck } from "@/lib/schemas/address-book";
import { checkAddress } from "./offline-checks";
import { validateAddresses } from "./validate-addresses";

type Party = "shipper" | "recipient";

/** What the audit log keeps of the check: its outcome and the offline checks' codes, never the addresses. */
export interface AddressGuardSummary {
  /** validated (`validate: true`), overridden (`validate: false` over an objection), skipped (not asked). */
  address_check: "validated" | "skipped" | "overridden";
  address_problems?: string[];
}

const toCheck = (a: AddressToCheck): AddressToCheck => ({
  person_name: a.person_name,
  company_name: a.company_name,
  address_line1: a.address_line1,
  address_line2: a.address_line2,
  city: a.city,
  postal_code: a.postal_code,
  state_code: a.state_code,
  country_code: a.country_code,
  phone_number: a.phone_number,
});

/**
 * A shipment's addresses before it is rated (docs/api.md, "Addresses"). `validate: true`: the full validation, and
 * an invalid address refuses the request, naming `recipient.postal_code` and the like (nothing is changed, whatever
 * a carrier suggests). Otherwise the shipment goes ahead ("ship anyway"); the offline checks still run (free) and
 * what they objected to is returned for the audit log, so a label bought over an objection is on record.
 */
export async function guardAddresses({
  ctx,
  parties,
  validate,
  carrier = null,
  service = null,
}: {
  ctx: DomainContext;
  parties: Record<Party, AddressToCheck>;
  validate: boolean | null;
  /** The carrier and service the label is for, when known (proxy shipping): their own lines are checked. */
  carrier?: CarrierName | null;
  service?: string | null;
}): Promise<AddressGuardSummary> {
  const names = Object.keys(parties) as Party[];
  if (validate) {
    const results = await validateAddresses({
      ctx,
      input: {
        addresses: names.map((p) => toCheck(parties[p])),
        carrier_ids: [],
        carrier_name: carrier,
        service,
      },
    });
    const problems: FieldProblem[] = results.flatMap((r, i) =>
      r.status !== "invalid"
        ? []
        : r.messages
            .filter((m) => m.level === "error")
            .map((m) => ({ message: `${m.text} (${m.code})`, field: m.field ? `${names[i]}.${m.field}` : names[i]! })),
    );
    if (problems.length > 0) throw new AddressInvalidError(problems);
    return { address_check: "validated" };
  }
  const codes = names.flatMap((p) =>
    checkAddress(toCheck(parties[p]), { carrier, service })
      .messages.filter((m) => m.level === "error")
      .map((m) => `${p}.${m.field ?? "address"}:${m.code}`),
  );
  if (codes.length === 0 || validate === null) {
    return { address_check: "skipped", ...(codes.length ? { address_problems: codes } : {}) };
  }
  return { address_check: "overridden", address_problems: codes };
}
