"use client";

import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { COUNTRIES, postalFormatOf, subdivisionsOf } from "@/lib/client/create-label/address-data";
import type { CreateLabelValues } from "@/lib/client/create-label/form-schema";
import { SelectField, TextField } from "./form-field";
import { StreetLineField } from "./street-line-field";

interface AddressFieldsetProps {
  side: "shipper" | "recipient";
  legend: string;
  /** The parcel crosses a border: carriers and customs need a phone number at both ends. */
  abroad: boolean;
}

const COUNTRY_OPTIONS = COUNTRIES.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));

/** Ship-from or ship-to, country first: it decides the state list and the postal code's shape. */
export function AddressFieldset({ side, legend, abroad }: AddressFieldsetProps) {
  const { control, getValues, setValue } = useFormContext<CreateLabelValues>();
  const country = useWatch({ control, name: `${side}.country_code` });
  const subdivisions = subdivisionsOf(country);
  const postal = postalFormatOf(country);
  // The browser fills the clerk's own details into ship-from; ship-to is someone else's.
  const auto = (token: string) => (side === "shipper" ? token : "off");

  function countryChanged(event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) {
    const next = subdivisionsOf(event.target.value);
    const state = getValues(`${side}.state_code`).trim().toUpperCase();
    // A state of another country's list means nothing here.
    if (state && !next?.options.some((o) => o.code === state)) setValue(`${side}.state_code`, "");
  }

  const countryOptions = COUNTRY_OPTIONS.some((o) => o.value === country)
    ? COUNTRY_OPTIONS
    : [{ value: country, label: country }, ...COUNTRY_OPTIONS];

  return (
    <Card>
      <fieldset className="@container grid gap-4 p-4">
        <legend className="mb-1 text-base font-semibold">{legend}</legend>
        <SelectField
          name={`${side}.country_code`}
          label="Country"
          required
          options={countryOptions}
          onChange={countryChanged}
        />
        <div className="grid items-start gap-4 @sm:grid-cols-2">
          <TextField name={`${side}.person_name`} label="Name" autoComplete={auto("name")} maxLength={200} />
          <TextField
            name={`${side}.company_name`}
            label="Company"
            autoComplete={auto("organization")}
            maxLength={200}
          />
        </div>
        <StreetLineField
          name={`${side}.address_line1`}
          label="Street address"
          required
          autoComplete={auto("address-line1")}
        />
        <StreetLineField
          name={`${side}.address_line2`}
          label="Apartment, suite, unit"
          autoComplete={auto("address-line2")}
        />
        <div className="grid items-start gap-4 @sm:grid-cols-2 @md:grid-cols-3">
          <TextField
            name={`${side}.city`}
            label="City"
            required
            autoComplete={auto("address-level2")}
            maxLength={100}
          />
          {subdivisions ? (
            <SelectField
              name={`${side}.state_code`}
              label={subdivisions.label}
              required
              placeholder="Choose…"
              options={subdivisions.options.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
            />
          ) : (
            <TextField
              name={`${side}.state_code`}
              label="State / region"
              autoComplete={auto("address-level1")}
              maxLength={10}
            />
          )}
          <TextField
            name={`${side}.postal_code`}
            label={postal?.label ?? "Postal code"}
            required
            autoComplete={auto("postal-code")}
            maxLength={20}
            hint={postal ? `e.g. ${postal.example}` : undefined}
          />
        </div>
        <div className="grid items-start gap-4 @sm:grid-cols-2">
          <TextField
            name={`${side}.phone_number`}
            label="Phone"
            type="tel"
            required={abroad}
            autoComplete={auto("tel")}
            maxLength={50}
            hint={abroad ? "Required when shipping to another country." : undefined}
          />
          <TextField name={`${side}.email`} label="Email" type="email" autoComplete={auto("email")} maxLength={254} />
        </div>
        <Controller
          control={control}
          name={`${side}.residential`}
          render={({ field }) => (
            <div className="flex items-center gap-2">
              <Checkbox
                id={`${side}-residential`}
                ref={field.ref}
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
              />
              <Label htmlFor={`${side}-residential`} className="font-normal">
                Residential address
              </Label>
            </div>
          )}
        />
      </fieldset>
    </Card>
  );
}
