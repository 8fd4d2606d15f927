import "server-only";
import type { DomainContext } from "@/lib/context";
import { getAdapter } from "@/lib/carriers/registry";
import type { Address, AddressVerification } from "@/lib/carriers/types";
import { orgConnections } from "@/lib/connections/cache";
import { invokeConnection } from "@/lib/connections/invoke-connection";
import type { ConnectionRow } from "@/lib/connections/present";
import { namedConnections } from "@/lib/connections/select-connections";
import type { AddressToCheck, AddressValidationResult, AddressValidateRequest } from "@/lib/schemas/address-book";
import { checkAddress } from "./offline-checks";
import type { AddressMessage, AddressSuggestion, CheckedAddress } from "./types";
import { changedFields } from "./types";
import { addressHash, readVerifications, storeVerifications, type CachedVerdict } from "./verification-cache";

/**
 * POST /v1/addresses/validate (docs/api.md, "Addresses"): the offline checks for every address, then, for those
 * they pass, the verification of a carrier the organization is connected to that verifies the address's country,
 * from the organization's cache when it has the answer. Nothing is changed: corrections and candidates are
 * suggestions the caller may choose.
 */

/** Carrier calls in flight at once for one request (a call carries one address for UPS). */
const CONCURRENCY = 8;

type Verdict = CachedVerdict & { cached: boolean };

const verifies = (row: ConnectionRow, country: string) => {
  const adapter = getAdapter(row.carrierName);
  return (
    row.active &&
    !!adapter?.capabilities.includes("address_validation") &&
    (!adapter.addressCountries || adapter.addressCountries.includes(country))
  );
};

/** The connection that verifies a country: the carrier the label is for first, then the oldest. */
function providerFor(rows: ConnectionRow[], country: string, preferred: string | null): ConnectionRow | null {
  const able = rows.filter((r) => verifies(r, country));
  // A carrier that checks streets (UPS, USPS, FedEx) is asked before one that checks the postal code and city only
  // (DHL Express), unless the label's carrier is named.
  const street = able.filter((r) => getAdapter(r.carrierName)?.addressScope !== "place");
  return able.find((r) => r.carrierName === preferred) ?? street[0] ?? able[0] ?? null;
}

function toCarrierAddress(a: CheckedAddress): Address {
  return {
    ...a,
    suburb: null,
    residential: false,
    email: null,
    federal_tax_id: null,
    state_tax_id: null,
  };
}

const checked = (a: AddressToCheck): CheckedAddress => ({ ...a });

export async function validateAddresses({
  ctx,
  input,
  now = new Date(),
}: {
  ctx: DomainContext;
  input: AddressValidateRequest;
  now?: Date;
}): Promise<AddressValidationResult[]> {
  const addresses = input.addresses.map(checked);
  const offline = addresses.map((a) =>
    checkAddress(a, { carrier: input.carrier_name ?? null, service: input.service ?? null }),
  );
  // docs/api.md, "Errors": an entry that matches no connection of the caller is a 400 on it, as on every route.
  const rows = namedConnections(await orgConnections(ctx.db, ctx.org.id), input.carrier_ids);
  const providers = addresses.map((a, i) =>
    offline[i]!.messages.some((m) => m.level === "error")
      ? null
      : providerFor(rows, a.country_code, input.carrier_name ?? null),
  );
  const verdicts = await verify(ctx, addresses, providers, now);
  return addresses.map((address, i) => {
    const provider = providers[i];
    const verdict = verdicts.get(i);
    const base = { address, provider: null, residential: null, cached: false } as const;
    const messages: AddressMessage[] = [...offline[i]!.messages];
    const suggestions: AddressSuggestion[] = [...offline[i]!.suggestions];
    if (messages.some((m) => m.level === "error")) {
      return { ...base, status: "invalid", suggestions, messages };
    }
    if (!provider || !verdict || "failure" in verdict) {
      messages.push({
        field: null,
        code: "verification_unavailable",
        level: provider ? "warning" : "info",
        text:
          verdict && "failure" in verdict
            ? `${verdict.failure} The offline checks passed.`
            : `No connection of this organization verifies ${address.country_code} addresses; the offline checks passed.`,
      });
      return { ...base, status: "unverified", suggestions, messages };
    }
    const who = { carrier_name: provider.carrierName, carrier_id: provider.carrierId };
    const found = { ...base, provider: who, residential: verdict.residential, cached: verdict.cached };
    const candidates = verdict.candidates.map((c) => ({
      ...c,
      person_name: address.person_name,
      company_name: address.company_name,
      phone_number: address.phone_number,
    }));
    const offered = candidates.map((c) => ({
      source: "carrier" as const,
      address: c,
      changed_fields: changedFields(address, c),
    }));
    switch (verdict.status) {
      case "not_found":
        messages.push({
          field: null,
          code: "address_not_found",
          level: "error",
          text: `${provider.carrierName} knows no such address.`,
        });
        return { ...found, status: "invalid", suggestions, messages };
      case "ambiguous":
        messages.push({
          field: null,
          code: "address_ambiguous",
          level: "warning",
          text: `${provider.carrierName} knows ${candidates.length} addresses that could be meant: choose one.`,
        });
        return { ...found, status: "ambiguous", suggestions: [...offered, ...suggestions], messages };
      default: {
        const changes = offered.filter((s) => s.changed_fields.length > 0);
        if (changes.length === 0) return { ...found, status: "verified", suggestions, messages };
        messages.push({
          field: changes[0]!.changed_fields[0] ?? null,
          code: "address_corrected",
          level: "warning",
          text: `${provider.carrierName} knows this address with changes to ${changes[0]!.changed_fields.join(", ")}.`,
        });
        return { ...found, status: "corrected", suggestions: [...changes, ...suggestions], messages };
      }
    }
  });
}

/** The carriers' verdicts by address index: the cache's first, then calls (a pool), stored for the next time. */
async function verify(
  ctx: DomainContext,
  addresses: CheckedAddress[],
  providers: (ConnectionRow | null)[],
  now: Date,
): Promise<Map<number, Verdict | { failure: string }>> {
  const out = new Map<number, Verdict | { failure: string }>();
  const byProvider = new Map<ConnectionRow, number[]>();
  providers.forEach((p, i) => p && byProvider.set(p, [...(byProvider.get(p) ?? []), i]));
  for (const [row, indexes] of byProvider) {
    const hashes = addresses.map((a) => addressHash(a, row.testMode ? "test" : "live"));
    const cached = await readVerifications(
      ctx.db,
      ctx.org.id,
      row.carrierName,
      indexes.map((i) => hashes[i]!),
      now,
    );
    const missing: number[] = [];
    for (const i of indexes) {
      const hit = cached.get(hashes[i]!);
      if (hit) out.set(i, { ...hit, cached: true });
      else missing.push(i);
    }
    // One call per distinct address: a list that repeats an address asks once.
    const distinct = [...new Map(missing.map((i) => [hashes[i]!, i])).values()];
    const batch = Math.max(1, getAdapter(row.carrierName)?.addressBatch ?? 1);
    const calls: number[][] = [];
    for (let k = 0; k < distinct.length; k += batch) calls.push(distinct.slice(k, k + batch));
    const fresh: { hash: string; verdict: AddressVerification }[] = [];
    await pool(calls, CONCURRENCY, async (call) => {
      const outcome = await invokeConnection(row, "address_validation", ctx.signal, (adapter, actx) =>
        adapter.validateAddresses!(
          actx,
          call.map((i) => toCarrierAddress(addresses[i]!)),
        ),
      );
      call.forEach((i, k) => {
        const verdict = outcome.ok ? outcome.data[k] : undefined;
        if (verdict && verdict.status !== "unsupported") fresh.push({ hash: hashes[i]!, verdict });
        else {
          const reason = !outcome.ok
            ? (outcome.messages[0]?.message ?? "failed")
            : verdict
              ? `it does not check addresses in ${addresses[i]!.country_code}.`
              : "answered without it";
          out.set(i, { failure: `${row.carrierName} could not verify the address: ${reason}` });
        }
      });
    });
    await storeVerifications(ctx.db, ctx.org.id, row.carrierName, fresh, now);
    const freshByHash = new Map(fresh.map((f) => [f.hash, f.verdict]));
    for (const i of missing) {
      const v = freshByHash.get(hashes[i]!);
      if (v) out.set(i, { status: v.status, residential: v.residential, candidates: v.candidates, cached: false });
      else if (!out.has(i)) {
        const twin = distinct.find((d) => hashes[d] === hashes[i]);
        const failed = twin !== undefined ? out.get(twin) : undefined;
        if (failed) out.set(i, failed);
      }
    }
  }
  return out;
}

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
