import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { newestFirst, timestamptz } from "./columns";

/**
 * An organization's own boxes (docs/api.md, "Parcel presets"): the create-label form fills a parcel from one. One may
 * be the default, preselected on a blank form (a unique index holds it to one per organization).
 */
export const parcelPresets = pgTable(
  "parcel_presets",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    length: doublePrecision("length").notNull(),
    width: doublePrecision("width").notNull(),
    height: doublePrecision("height").notNull(),
    dimensionUnit: text("dimension_unit").notNull(),
    weight: doublePrecision("weight"),
    weightUnit: text("weight_unit"),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("parcel_presets_org_newest").on(t.orgId, ...newestFirst(t)),
    uniqueIndex("parcel_presets_one_default")
      .on(t.orgId)
      .where(sql`${t.isDefault}`),
  ],
);

/** How the create-label form preselects a rate: cheapest, fastest, or a fixed connection (carrier_id) and service. */
export interface StoredRateRuleSetting {
  kind: "cheapest" | "fastest" | "fixed";
  carrier_id: string | null;
  service: string | null;
}

/**
 * An organization's settings that are one value each (docs/api.md, "Rate rule"): a row once the first is saved.
 */
export const organizationSettings = pgTable("organization_settings", {
  orgId: text("org_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  rateRule: jsonb("rate_rule").$type<StoredRateRuleSetting>(),
  updatedAt: timestamptz("updated_at").notNull().defaultNow(),
});
