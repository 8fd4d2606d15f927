"use client";

import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { COUNTRIES } from "@/lib/client/create-label/address-data";
import { SelectField, TextField } from "./form-field";
import { WEIGHT_UNIT_OPTIONS } from "./parcel-fieldset";

const COUNTRY_OPTIONS = COUNTRIES.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));

interface CommodityRowProps {
  index: number;
  /** Null when the row cannot go: a declaration of goods lists at least one item. */
  onRemove: (() => void) | null;
}

/** One line of the commercial invoice: what it is, how many, what one is worth and weighs, its tariff code and origin. */
export function CommodityRow({ index, onRemove }: CommodityRowProps) {
  const name = <K extends string>(key: K) => `customs.commodities.${index}.${key}` as const;
  const number = index + 1;
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="sr-only">Item {number}</legend>
      <div className="flex min-h-8 items-center justify-between gap-2">
        <span aria-hidden className="text-sm font-medium">
          Item {number}
        </span>
        {onRemove && (
          <Button type="button" variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove item ${number}`}>
            <Trash2 aria-hidden />
            Remove
          </Button>
        )}
      </div>
      <div className="grid grid-cols-2 items-start gap-3 @md:grid-cols-3 @2xl:grid-cols-6">
        <TextField
          name={name("description")}
          label="Description"
          required
          maxLength={200}
          autoComplete="off"
          className="col-span-2 @md:col-span-3"
        />
        <TextField name={name("quantity")} label="Quantity" required inputMode="numeric" autoComplete="off" />
        <TextField name={name("value_amount")} label="Unit value" required inputMode="decimal" autoComplete="off" />
        <TextField
          name={name("value_currency")}
          label="Currency"
          required
          maxLength={3}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
        />
        <TextField name={name("weight")} label="Unit weight" required inputMode="decimal" autoComplete="off" />
        <SelectField name={name("weight_unit")} label="Weight unit" options={WEIGHT_UNIT_OPTIONS} />
        <TextField name={name("hs_code")} label="HS code" inputMode="numeric" maxLength={14} autoComplete="off" />
        <SelectField
          name={name("origin_country")}
          label="Country of origin"
          required
          placeholder="Choose…"
          options={COUNTRY_OPTIONS}
          className="col-span-2"
        />
        <TextField name={name("sku")} label="SKU" maxLength={100} autoComplete="off" />
      </div>
    </fieldset>
  );
}
