"use client";

import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { COUNTRIES, postalFormatOf, subdivisionsOf } from "@/lib/client/create-label/address-data";
import type { CreateLabelValues } from "@/lib/client/create-label/form-schema";
import { AddressBookActions } from "./address-book-picker";
import { AddressCheckPanel } from "./address-check-panel";
import { SelectField, TextField } from "./form-field";
import { StreetLineField } from "./street-line-field";
import { useAddressCheck } from "./use-address-check";
import type { DraftOwner } from "./use-draft";

interface AddressFieldsetProps {
  side: "shipper" | "recipient";
  legend: string;
  /** The parcel crosses a border: carriers and customs need a phone number at both ends. */
  abroad: boolean;
  /** Whose browser remembers "Keep mine". */
  owner: DraftOwner;
  /** The chosen rate's carrier: the check names it (its line lengths, PO Box rule, characters it prints). */
  carrier: string | null;
  /** The recipient's residential flag the shown rates were asked with; null before any rates. */
  ratedResidential?: boolean | null;
}

const COUNTRY_OPTIONS = COUNTRIES.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));

/** Ship-from or ship-to, country first: it decides the state list and the postal code's shape. */
export function AddressFieldset({ side, legend, abroad, owner, carrier, ratedResidential }: AddressFieldsetProps) {
  const { control, getValues, setValue } = useFormContext<CreateLabelValues>();
  const check = useAddressCheck(side, carrier);
  const { notices } = check;
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
      {/* Checked when the focus leaves the block (useAddressCheck), not on each field. */}
      <fieldset className="@container grid gap-4 p-4" onBlur={check.onBlur} onFocus={check.onFocus}>
        <legend className="mb-1 text-base font-semibold">{legend}</legend>
        <AddressBookActions side={side} onFilled={check.check} />
        <SelectField
          name={`${side}.country_code`}
          label="Country"
          required
          options={countryOptions}
          notice={notices.country_code}
          onChange={countryChanged}
        />
        <div className="grid items-start gap-4 @sm:grid-cols-2">
          <TextField
            name={`${side}.person_name`}
            label="Name"
            autoComplete={auto("name")}
            maxLength={200}
            notice={notices.person_name}
          />
          <TextField
            name={`${side}.company_name`}
            label="Company"
            autoComplete={auto("organization")}
            maxLength={200}
            notice={notices.company_name}
          />
        </div>
        <StreetLineField
          name={`${side}.address_line1`}
          label="Street address"
          required
          autoComplete={auto("address-line1")}
          notice={notices.address_line1}
        />
        <StreetLineField
          name={`${side}.address_line2`}
          label="Apartment, suite, unit"
          autoComplete={auto("address-line2")}
          notice={notices.address_line2}
        />
        <div className="grid items-start gap-4 @sm:grid-cols-2 @md:grid-cols-3">
          <TextField
            name={`${side}.city`}
            label="City"
            required
            autoComplete={auto("address-level2")}
            maxLength={100}
            notice={notices.city}
          />
          {subdivisions ? (
            <SelectField
              name={`${side}.state_code`}
              label={subdivisions.label}
              required
              placeholder="Choose…"
              notice={notices.state_code}
              options={subdivisions.options.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
            />
          ) : (
            <TextField
              name={`${side}.state_code`}
              label="State / region"
              autoComplete={auto("address-level1")}
              maxLength={10}
              notice={notices.state_code}
            />
          )}
          <TextField
            name={`${side}.postal_code`}
            label={postal?.label ?? "Postal code"}
            required
            autoComplete={auto("postal-code")}
            maxLength={20}
            hint={postal ? `e.g. ${postal.example}` : undefined}
            notice={notices.postal_code}
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
            notice={notices.phone_number}
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
        <AddressCheckPanel side={side} check={check} owner={owner} ratedResidential={ratedResidential} />
      </fieldset>
    </Card>
  );
}
