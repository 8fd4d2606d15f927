"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { FormProvider, type UseFormReturn } from "react-hook-form";
import { FileSpreadsheet } from "lucide-react";
import { CheckboxField, FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useApiForm } from "@/components/forms/use-api-form";
import { AddressFieldset } from "@/components/shipments/create/address-fieldset";
import { RateRules } from "./rate-rules";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { apiFetch, untilAnswered } from "@/lib/client/api";
import { newAttemptKey } from "@/lib/client/create-label/purchase-attempt";
import {
  batchOptions,
  batchUpload,
  blankRule,
  choiceOf,
  columnsOf,
  NewBatchForm,
  newBatchDefaults,
  uploadAttempt,
  type NewBatchValues,
  type UploadAttempt,
} from "@/lib/client/batch-form";
import { FIELD_GROUPS, mappingOf, prefillMapping, readHeaders } from "@/lib/client/batch-mapping";
import type { CreateLabelValues } from "@/lib/client/create-label/form-schema";
import { BATCH_FIELDS, type Batch, type BatchField } from "@/lib/schemas/batch";
import { LABEL_TYPES } from "@/lib/carriers/types";
import type { DraftOwner } from "@/components/shipments/create/use-draft";

export interface NewBatchFormProps {
  /** The organization's saved column mapping (GET /v1/batches/mapping). */
  savedMapping: Partial<Record<BatchField, string>>;
  /** The ship-from prefilled: this person's last one (CreateLabelDefaults' shipFrom, as form values). */
  shipper: NewBatchValues["shipper"];
  /** Whose browser remembers an address check's "Keep mine" (as in the create-label form). */
  owner: DraftOwner;
  /** The services of the organization's connections, for a fixed service (serviceChoice values). */
  services: readonly { value: string; label: string }[];
}

const POLICIES = [
  { value: "cheapest", label: "Cheapest rate for each row" },
  { value: "fastest", label: "Fastest rate for each row" },
  { value: "fixed", label: "One carrier and service for every row" },
  { value: "rules", label: "Rules by weight, destination or value" },
];
const FORMATS = LABEL_TYPES.map((t) => ({ value: t, label: t === "ZPL" ? "ZPL (thermal printers)" : t }));

/**
 * A new batch from a CSV file: the file, its columns mapped to our fields (prefilled from the saved mapping and the
 * header names), the ship-from and how rates are picked. "Check rows" uploads it; the batch's page shows the dry run.
 */
export function NewBatchFormView({ savedMapping, shipper, owner, services }: NewBatchFormProps) {
  const router = useRouter();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useRef<UploadAttempt | null>(null);
  const { form, onSubmit, formError, pending } = useApiForm({
    schema: NewBatchForm,
    defaultValues: newBatchDefaults(shipper),
    refresh: false,
    request: async (values) => {
      if (!file) throw new Error("Choose a CSV file first.");
      if (values.save_mapping) {
        await apiFetch("/v1/batches/mapping", {
          method: "PUT",
          body: { mapping: mappingOf(choiceOf(values.columns)) },
        });
      }
      const options = batchOptions(file, values);
      const attempt = (upload.current = uploadAttempt(upload.current, file, options, newAttemptKey));
      return untilAnswered(() =>
        apiFetch<Batch>("/v1/batches", {
          method: "POST",
          body: batchUpload(file, options),
          idempotencyKey: attempt.key,
        }),
      );
    },
    onSuccess: (batch) => router.push(`/batches/${batch.id}`),
  });

  // The form's own setter (stable across renders): the effect below runs once per file, never over the clerk's picks.
  const { setValue, getValues } = form;
  const policy = form.watch("rate_policy");

  // Rules start with one to fill in; rules made earlier and left by choosing another policy are still there.
  function policyChanged(event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) {
    if (event.target.value === "rules" && getValues("rules").length === 0) {
      setValue("rules", [blankRule(getValues("price_cap_currency"))]);
    }
  }

  async function chooseFile(chosen: File | null) {
    setFile(chosen);
    setHeaders([]);
    setFileProblem(null);
    if (!chosen) return;
    const read = await readHeaders(chosen);
    if ("problem" in read) {
      setFileProblem(read.problem);
      return;
    }
    setHeaders(read.headers);
  }

  // A file chosen before the page's script ran (a slow line) fired its change event with no one listening: it is
  // read once the form is ready, as if chosen now. A file input's list cannot be set by a script, only read.
  useEffect(() => {
    const early = fileInput.current?.files?.[0];
    if (early) void chooseFile(early);
    // Once, at hydration: later choices come through onChange.
  }, []);

  // Once the column selects of this file are mounted, each is set to its prefilled column (set before they exist,
  // a select would show its empty default instead).
  useEffect(() => {
    if (headers.length === 0) return;
    const columns = columnsOf(prefillMapping(headers, savedMapping));
    columns.forEach((header, i) => setValue(`columns.${i}`, header));
  }, [headers, savedMapping, setValue]);

  const columnOptions = headers.map((h) => ({ value: h, label: h }));
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-5">
        <Card>
          <CardHeader>
            <CardTitle>1. CSV file</CardTitle>
            <CardDescription>
              UTF-8, comma or semicolon, a header row; up to 10 000 rows and 100 columns. One row is one parcel.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-1.5">
            <Label htmlFor={fileId}>File</Label>
            <Input
              ref={fileInput}
              id={fileId}
              type="file"
              accept=".csv,text/csv"
              required
              aria-invalid={fileProblem ? true : undefined}
              aria-describedby={fileProblem ? `${fileId}-error` : `${fileId}-status`}
              onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)}
              className="h-auto py-1.5"
            />
            {fileProblem ? (
              <p id={`${fileId}-error`} role="alert" className="text-xs font-medium text-destructive">
                {fileProblem}
              </p>
            ) : (
              <p id={`${fileId}-status`} className="flex items-center gap-1.5 text-xs text-muted-foreground">
                {file && headers.length > 0 && <FileSpreadsheet aria-hidden className="size-3.5" />}
                {file && headers.length > 0
                  ? `${file.name}: ${headers.length} columns`
                  : "Choose the file your shop exported."}
              </p>
            )}
          </CardContent>
        </Card>

        {headers.length > 0 && (
          <Card>
            <CardHeader>
              <CardTitle>2. Columns</CardTitle>
              <CardDescription>
                Which column of the file holds each field. Columns named like the field are chosen already; a row
                without a street, city, postal code, country or weight fails the check with that column named.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-5">
              {FIELD_GROUPS.map((group) => (
                <fieldset key={group.legend} className="grid gap-3">
                  <legend className="mb-2 text-sm font-semibold">{group.legend}</legend>
                  <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                    {group.fields.map(({ field, label }) => (
                      <SelectField<NewBatchValues>
                        key={field}
                        name={`columns.${BATCH_FIELDS.indexOf(field)}`}
                        label={label}
                        placeholder="Not in the file"
                        options={columnOptions}
                      />
                    ))}
                  </div>
                </fieldset>
              ))}
              <CheckboxField<NewBatchValues>
                name="save_mapping"
                label="Save these columns for the organization's next file"
              />
            </CardContent>
          </Card>
        )}

        {/* The ship-from fieldset is the create-label form's: same names (`shipper.*`), same checks. */}
        <FormProvider {...(form as unknown as UseFormReturn<CreateLabelValues>)}>
          <AddressFieldset
            side="shipper"
            legend="3. Ship from (every row)"
            abroad={false}
            owner={owner}
            carrier={null}
          />
        </FormProvider>

        <Card>
          <fieldset className="grid gap-4 p-4 sm:grid-cols-2">
            <legend className="mb-1 text-base font-semibold">4. Rates and labels</legend>
            <p className="text-sm text-muted-foreground sm:col-span-2">
              A row&apos;s own carrier and service columns win over the choice here.
            </p>
            <SelectField<NewBatchValues> name="rate_policy" label="Rate" options={POLICIES} onChange={policyChanged} />
            <SelectField<NewBatchValues> name="label_type" label="Label format" options={FORMATS} />
            {policy === "fixed" && (
              <SelectField<NewBatchValues>
                name="fixed_service"
                label="Carrier and service"
                placeholder={services.length > 0 ? "Choose a service" : "No connection can buy labels"}
                options={services}
                required
                className="sm:col-span-2"
              />
            )}
            {policy === "rules" && <RateRules services={services} />}
            <TextField<NewBatchValues>
              name="price_cap"
              label="Price cap (optional)"
              inputMode="decimal"
              hint="A row priced above it waits for your approval; it is never bought without one."
            />
            <TextField<NewBatchValues>
              name="price_cap_currency"
              label="Cap currency"
              maxLength={3}
              autoCapitalize="characters"
            />
          </fieldset>
        </Card>

        <div className="grid gap-2">
          <FormError>{formError}</FormError>
          <div>
            <Button type="submit" loading={pending} disabled={!file || headers.length === 0}>
              Check rows
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">
            Every row is checked and priced first; nothing is bought until you confirm the total.
          </p>
        </div>
      </form>
    </FormProvider>
  );
}
