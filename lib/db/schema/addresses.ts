import { boolean, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { timestamptz } from "./columns";

/** A shipper or recipient as it was when the shipment was created (shipments never share address rows). */
export const addresses = pgTable(
  "addresses",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    personName: text("person_name"),
    companyName: text("company_name"),
    addressLine1: text("address_line1").notNull(),
    addressLine2: text("address_line2"),
    city: text("city").notNull(),
    postalCode: text("postal_code").notNull(),
    stateCode: text("state_code").notNull(),
    countryCode: text("country_code").notNull(),
    suburb: text("suburb"),
    residential: boolean("residential").notNull(),
    email: text("email"),
    phoneNumber: text("phone_number"),
    federalTaxId: text("federal_tax_id"),
    stateTaxId: text("state_tax_id"),
    validateLocation: boolean("validate_location"),
    validation: jsonb("validation").$type<Record<string, unknown>>(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [index("addresses_org").on(t.orgId)],
);
