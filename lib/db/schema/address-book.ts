import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { newestFirst, timestamptz } from "./columns";

/**
 * The address book (docs/api.md, "Addresses"): addresses an organization keeps to ship from and to again. One may be
 * its default ship-from. `search_text` is the lowercased name, company, street, city and postal code `q` searches.
 */
export const savedAddresses = pgTable(
  "saved_addresses",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    label: text("label"),
    personName: text("person_name"),
    companyName: text("company_name"),
    addressLine1: text("address_line1").notNull(),
    addressLine2: text("address_line2"),
    city: text("city").notNull(),
    postalCode: text("postal_code").notNull(),
    stateCode: text("state_code").notNull(),
    countryCode: text("country_code").notNull(),
    residential: boolean("residential"),
    email: text("email"),
    phoneNumber: text("phone_number"),
    federalTaxId: text("federal_tax_id"),
    isDefaultSender: boolean("is_default_sender").notNull().default(false),
    searchText: text("search_text").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("saved_addresses_org_newest").on(t.orgId, ...newestFirst(t)),
    uniqueIndex("saved_addresses_one_default_sender")
      .on(t.orgId)
      .where(sql`${t.isDefaultSender}`),
  ],
);

/**
 * Carriers' verifications, kept so a repeat answers without a call: per organization (a carrier's answer is bought
 * with its credentials, and a shared cache would tell one tenant, by its speed, which streets another ships to), per
 * carrier, keyed by a hash of the normalized address lines (no names, phones or emails go in the key or the row).
 */
export const addressVerifications = pgTable(
  "address_verifications",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    carrierName: text("carrier_name").notNull(),
    addressHash: text("address_hash").notNull(),
    verdict: jsonb("verdict").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.carrierName, t.addressHash] }),
    index("address_verifications_created").on(t.createdAt),
  ],
);
