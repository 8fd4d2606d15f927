"use client";

import { Plus } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { useFieldArray, useFormContext, useFormState, useWatch, type UseFormReturn } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CONTENT_TYPE_WORDS, DUTY_PAYER_WORDS, INCOTERM_WORDS } from "@/components/shipments/customs-words";
import type { Incoterm } from "@/lib/carriers/types";
import {
  dutyPayerFor,
  emptyCommodity,
  firstRowPrefill,
  type CommodityValues,
} from "@/lib/client/create-label/customs-form";
import { fieldErrorText } from "@/lib/client/problems";
import type { CreateLabelOutput, CreateLabelValues } from "@/lib/client/create-label/form-schema";
import { CommodityRow } from "./commodity-row";
import { CheckboxField, SelectField, TextField } from "./form-field";

const options = <K extends string>(words: Record<K, string>, label = (k: K, w: string) => w) =>
  (Object.entries(words) as [K, string][]).map(([value, word]) => ({ value, label: label(value, word) }));

const CONTENT_TYPES = options(CONTENT_TYPE_WORDS);
const INCOTERMS = options(INCOTERM_WORDS, (code, words) => `${code}: ${words}`);
const DUTY_PAYERS = options(DUTY_PAYER_WORDS, (payer, word) => (payer === "sender" ? `${word} (you)` : word));

interface CustomsFieldsetProps {
  from: string;
  to: string;
}

/** The customs declaration, shown only while the parcel crosses a customs border (needsCustoms). */
export function CustomsFieldset({ from, to }: CustomsFieldsetProps) {
  const { control, getValues, setValue } = useFormContext<CreateLabelValues>();
  const items = useFieldArray({ control, name: "customs.commodities" });
  const [contentType, paidBy, certify] = useWatch({
    control,
    name: ["customs.content_type", "customs.duty.paid_by", "customs.certify"],
  });
  const listError = useListError();
  const addButton = useRef<HTMLButtonElement>(null);

  function contentTypeChanged(event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) {
    // Goods are declared item by item: a declaration that had none (documents) starts one.
    if (event.target.value !== "documents" && getValues("customs.commodities").length === 0) {
      items.append(emptyCommodity(), { shouldFocus: false });
    }
  }

  function incotermChanged(event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) {
    if (getValues("customs.duty.paid_by") === "third_party") return;
    setValue("customs.duty.paid_by", dutyPayerFor(event.target.value as Incoterm));
  }

  function addItem() {
    const rows = getValues("customs.commodities");
    items.append(emptyCommodity(rows.at(-1)));
  }

  function removeItem(index: number) {
    items.remove(index);
    // The button pressed is gone: the focus goes on to the list's own button rather than to the page's start.
    addButton.current?.focus();
  }

  const removable = items.fields.length > 1 || contentType === "documents";
  return (
    <Card>
      <fieldset className="@container grid gap-4 p-4">
        <legend className="mb-1 text-base font-semibold">Customs</legend>
        <p className="text-sm text-muted-foreground">
          From {from} to {to} the parcel crosses a customs border: declare what it holds. Rates do not need this; the
          label does.
        </p>
        <div className="grid items-start gap-4 @md:grid-cols-2">
          <SelectField
            name="customs.content_type"
            label="Content type"
            required
            options={CONTENT_TYPES}
            onChange={contentTypeChanged}
          />
          {contentType === "other" && (
            <TextField
              name="customs.content_description"
              label="What the parcel holds"
              required
              maxLength={200}
              autoComplete="off"
            />
          )}
          <SelectField
            name="customs.incoterm"
            label="Incoterm"
            required
            options={INCOTERMS}
            onChange={incotermChanged}
            hint="DAP (or DDU, which UPS does not take): the recipient pays duties and taxes. DDP: you pay them."
            className="@md:col-start-1"
          />
          <SelectField name="customs.duty.paid_by" label="Duties paid by" required options={DUTY_PAYERS} />
          {paidBy === "third_party" && (
            <TextField
              name="customs.duty.account_number"
              label="Duty account number"
              required
              maxLength={50}
              autoComplete="off"
              hint="The third party's account with the carrier."
              className="@md:col-start-2"
            />
          )}
          <TextField
            name="customs.invoice"
            label="Invoice number"
            maxLength={35}
            autoComplete="off"
            className="@md:col-start-1"
          />
          <TextField name="customs.invoice_date" label="Invoice date" type="date" />
        </div>
        <CheckboxField
          name="customs.commercial_invoice"
          label="Send invoice electronically"
          hint="Where the carrier offers it (UPS Paperless Invoice, FedEx ETD): no paper invoice travels with the parcel."
        />
        <section aria-labelledby={listError.headingId} className="grid gap-3">
          <h3 id={listError.headingId} className="text-sm font-semibold">
            Items
          </h3>
          {items.fields.map((item, index) => (
            <CommodityRow key={item.id} index={index} onRemove={removable ? () => removeItem(index) : null} />
          ))}
          {listError.message && (
            <p id={listError.id} className="text-xs font-medium text-destructive">
              {listError.message}
            </p>
          )}
          <div>
            <Button
              ref={addButton}
              type="button"
              variant="outline"
              size="sm"
              onClick={addItem}
              aria-describedby={listError.message ? listError.id : undefined}
            >
              <Plus aria-hidden />
              Add item
            </Button>
          </div>
        </section>
        <div className="grid items-start gap-4 @md:grid-cols-2">
          <CheckboxField name="customs.certify" label="I certify the declaration is true" className="@md:pt-7" />
          <TextField name="customs.signer" label="Signed by" required={certify} maxLength={100} autoComplete="name" />
        </div>
      </fieldset>
    </Card>
  );
}

/** A problem with the list itself ("must all be valued in one currency"), shown under its items. */
function useListError() {
  const { getFieldState } = useFormContext<CreateLabelValues>();
  const { error } = getFieldState("customs.commodities", useFormState({ name: "customs.commodities" }));
  const id = useId();
  return {
    id: `${id}-error`,
    headingId: `${id}-heading`,
    message: error?.message ? fieldErrorText("Items", error.message) : null,
  };
}

/**
 * The first item starts from the parcel's weight and the rates' currency (`currency`, null before rates), and follows
 * them while the section is shown until the clerk types their own (firstRowPrefill). Used by the form rather than the
 * section, so what it wrote is remembered while the section is hidden. Written without marking the form dirty.
 */
export function useCustomsPrefill(
  { control, setValue }: UseFormReturn<CreateLabelValues, unknown, CreateLabelOutput>,
  enabled: boolean,
  currency: string | null,
) {
  const [weight, weightUnit, rows] = useWatch({
    control,
    name: ["parcels.0.weight", "parcels.0.weight_unit", "customs.commodities"],
  });
  const last = useRef<Partial<CommodityValues>>({});
  useEffect(() => {
    if (!enabled) return;
    const patch = firstRowPrefill(rows, { weight, weight_unit: weightUnit, currency }, last.current);
    for (const [key, value] of Object.entries(patch) as [keyof typeof patch, string][]) {
      setValue(`customs.commodities.0.${key}`, value);
    }
    last.current = { ...last.current, ...patch };
  }, [enabled, rows, weight, weightUnit, currency, setValue]);
}
