"use client";

import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useId, useRef } from "react";
import { useFieldArray, useFormContext, useFormState } from "react-hook-form";
import { SelectField, TextField } from "@/components/forms/form-fields";
import { WEIGHT_UNIT_OPTIONS } from "@/components/shipments/create/parcel-fieldset";
import { Button } from "@/components/ui/button";
import { blankRule, PICKS, type NewBatchValues } from "@/lib/client/batch-form";
import { COUNTRIES } from "@/lib/client/create-label/address-data";

/** A code typed in capitals (a state, a postal code's start, a currency): no autofill, no spelling marks. */
const CODE_INPUT = { autoComplete: "off", autoCapitalize: "characters", spellCheck: false } as const;

const COUNTRY_OPTIONS = COUNTRIES.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));

interface RateRulesProps {
  /** The services of the organization's connections (serviceChoice values), for a rule that fixes one. */
  services: readonly { value: string; label: string }[];
}

/**
 * A rules policy (lib/batches/rate-policy.ts): rules tried in order, each with its conditions (weight, destination,
 * declared value) and how it prices the rows it matches; rows no rule matches take the fallback. Each problem is
 * shown under its field, before anything is sent (lib/client/batch-form.ts, checkRules).
 */
export function RateRules({ services }: RateRulesProps) {
  const { control, getValues } = useFormContext<NewBatchValues>();
  const rules = useFieldArray({ control, name: "rules" });
  const addButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const { errors } = useFormState({ control, name: "rules" });
  const listError = errors.rules?.message ?? errors.rules?.root?.message;
  const picks = [...PICKS, ...services];

  function remove(index: number) {
    rules.remove(index);
    // The button pressed is gone: the focus goes on to the list's own button rather than to the page's start.
    addButton.current?.focus();
  }

  return (
    <section aria-labelledby={headingId} className="grid gap-3 sm:col-span-2">
      <h3 id={headingId} className="text-sm font-semibold">
        Rules
      </h3>
      <p className="text-sm text-muted-foreground">
        Tried in order: the first rule whose conditions all match a row prices it. Leave a condition empty to match any
        row.
      </p>
      {rules.fields.map((rule, index) => (
        <RuleFieldset
          key={rule.id}
          index={index}
          count={rules.fields.length}
          picks={picks}
          onMove={(to) => rules.move(index, to)}
          onRemove={() => remove(index)}
        />
      ))}
      {listError && (
        <p id={`${headingId}-error`} className="text-xs font-medium text-destructive">
          {listError}
        </p>
      )}
      <div>
        <Button
          ref={addButton}
          type="button"
          variant="outline"
          size="sm"
          onClick={() => rules.append(blankRule(getValues("price_cap_currency")))}
          aria-describedby={listError ? `${headingId}-error` : undefined}
        >
          <Plus aria-hidden />
          Add rule
        </Button>
      </div>
      <SelectField<NewBatchValues>
        name="fallback"
        label="Rows no rule matches"
        options={picks}
        className="sm:max-w-sm"
      />
    </section>
  );
}

interface RuleFieldsetProps {
  index: number;
  count: number;
  picks: readonly { value: string; label: string }[];
  onMove: (to: number) => void;
  onRemove: () => void;
}

function RuleFieldset({ index, count, picks, onMove, onRemove }: RuleFieldsetProps) {
  const name = <K extends string>(key: K) => `rules.${index}.${key}` as const;
  const number = index + 1;
  const errorId = useId();
  const { errors } = useFormState<NewBatchValues>({ name: `rules.${index}` });
  // A rule without any condition is a problem of the rule, not of one field (checkRules' "condition").
  const condition = (errors.rules?.[index] as { condition?: { message?: string } } | undefined)?.condition?.message;
  const first = index === 0;
  const last = index === count - 1;
  return (
    <fieldset
      className="grid gap-3 rounded-md border p-3"
      aria-describedby={condition ? errorId : undefined}
      aria-invalid={condition ? true : undefined}
    >
      <legend className="sr-only">Rule {number}</legend>
      <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
        <span aria-hidden className="text-sm font-medium">
          Rule {number}
        </span>
        <div className="flex gap-1">
          {/* aria-disabled, not disabled: a button that became the edge keeps the focus it was pressed with. */}
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-label={`Move rule ${number} up`}
            aria-disabled={first || undefined}
            onClick={() => !first && onMove(index - 1)}
          >
            <ArrowUp aria-hidden />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-label={`Move rule ${number} down`}
            aria-disabled={last || undefined}
            onClick={() => !last && onMove(index + 1)}
          >
            <ArrowDown aria-hidden />
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove rule ${number}`}>
            <Trash2 aria-hidden />
            Remove
          </Button>
        </div>
      </div>
      <div className="grid items-start gap-3 sm:grid-cols-3">
        <TextField<NewBatchValues>
          name={name("weight_min")}
          label="Weight from"
          inputMode="decimal"
          autoComplete="off"
        />
        <TextField<NewBatchValues> name={name("weight_max")} label="Weight to" inputMode="decimal" autoComplete="off" />
        <SelectField<NewBatchValues> name={name("weight_unit")} label="Weight unit" options={WEIGHT_UNIT_OPTIONS} />
        <SelectField<NewBatchValues>
          name={name("country_code")}
          label="Country"
          placeholder="Any country"
          options={COUNTRY_OPTIONS}
        />
        <TextField<NewBatchValues> name={name("state_code")} label="State or province" maxLength={10} {...CODE_INPUT} />
        <TextField<NewBatchValues>
          name={name("postal_prefix")}
          label="Postal code starts with"
          maxLength={10}
          {...CODE_INPUT}
        />
        <TextField<NewBatchValues> name={name("value_min")} label="Value from" inputMode="decimal" autoComplete="off" />
        <TextField<NewBatchValues> name={name("value_max")} label="Value to" inputMode="decimal" autoComplete="off" />
        <TextField<NewBatchValues> name={name("value_currency")} label="Value currency" maxLength={3} {...CODE_INPUT} />
      </div>
      {condition && (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {condition}
        </p>
      )}
      <SelectField<NewBatchValues> name={name("pick")} label="Then" options={picks} className="sm:max-w-sm" />
    </fieldset>
  );
}
