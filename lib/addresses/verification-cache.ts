import "server-only";
import { createHash } from "node:crypto";
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { AddressVerification } from "@/lib/carriers/types";
import { addressVerifications } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import type { CheckedAddress } from "./types";

/**
 * Carriers' verifications kept per organization and carrier (lib/db/schema/address-book.ts says why), keyed by a
 * hash of the address's normalized lines. Names and phones are neither hashed nor stored: a verdict's candidates
 * keep their lines only, and get the caller's names back when read.
 */
const TTL_MS = 30 * 24 * 3600 * 1000;
const PURGE_BATCH = 500;

const norm = (v: string | null) => (v ?? "").normalize("NFKC").trim().toUpperCase().replace(/\s+/g, " ");

/**
 * The cache key of an address's verdict. A test connection's verdicts (a carrier's canned sandbox answers) and a
 * live one's are kept apart: one is never served for the other.
 */
export function addressHash(a: CheckedAddress, mode: "test" | "live" = "live"): string {
  const lines = [a.address_line1, a.address_line2, a.city, a.state_code, a.postal_code, a.country_code].map(norm);
  const key = mode === "live" ? lines : [...lines, "test"];
  return createHash("sha256").update(JSON.stringify(key)).digest("hex");
}

interface StoredVerdict {
  status: AddressVerification["status"];
  residential: boolean | null;
  candidates: Omit<CheckedAddress, "person_name" | "company_name" | "phone_number">[];
}

export type CachedVerdict = StoredVerdict;

const linesOf = (a: CheckedAddress) => ({
  address_line1: a.address_line1,
  address_line2: a.address_line2,
  city: a.city,
  postal_code: a.postal_code,
  state_code: a.state_code,
  country_code: a.country_code,
});

export async function readVerifications(
  db: DbOrTx,
  orgId: string,
  carrierName: string,
  hashes: string[],
  now: Date,
): Promise<Map<string, CachedVerdict>> {
  if (hashes.length === 0) return new Map();
  const rows = await db
    .select({ hash: addressVerifications.addressHash, verdict: addressVerifications.verdict })
    .from(addressVerifications)
    .where(
      and(
        eq(addressVerifications.orgId, orgId),
        eq(addressVerifications.carrierName, carrierName),
        inArray(addressVerifications.addressHash, [...new Set(hashes)]),
        gt(addressVerifications.createdAt, new Date(now.getTime() - TTL_MS)),
      ),
    );
  return new Map(rows.map((r) => [r.hash, r.verdict as unknown as CachedVerdict]));
}

export async function storeVerifications(
  db: DbOrTx,
  orgId: string,
  carrierName: string,
  entries: { hash: string; verdict: AddressVerification }[],
  now: Date,
) {
  if (entries.length === 0) return;
  // Expired verdicts go as new ones come: the organization's writes keep its part of the table bounded, with no job.
  const expired = db
    .select({ hash: addressVerifications.addressHash })
    .from(addressVerifications)
    .where(
      and(
        eq(addressVerifications.orgId, orgId),
        eq(addressVerifications.carrierName, carrierName),
        lt(addressVerifications.createdAt, new Date(now.getTime() - TTL_MS)),
      ),
    )
    .limit(PURGE_BATCH);
  await db
    .delete(addressVerifications)
    .where(
      and(
        eq(addressVerifications.orgId, orgId),
        eq(addressVerifications.carrierName, carrierName),
        inArray(addressVerifications.addressHash, expired),
      ),
    );
  const unique = new Map(entries.map((e) => [e.hash, e.verdict]));
  await db
    .insert(addressVerifications)
    .values(
      [...unique].map(([hash, v]) => ({
        orgId,
        carrierName,
        addressHash: hash,
        createdAt: now,
        verdict: {
          status: v.status,
          residential: v.residential,
          candidates: v.candidates.map((c) =>
            linesOf({ ...c, person_name: null, company_name: null, phone_number: null }),
          ),
        } satisfies StoredVerdict as unknown as Record<string, unknown>,
      })),
    )
    .onConflictDoUpdate({
      target: [addressVerifications.orgId, addressVerifications.carrierName, addressVerifications.addressHash],
      set: { verdict: sql`excluded.verdict`, createdAt: sql`excluded.created_at` },
    });
}
