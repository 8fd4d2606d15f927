"use client";

import { FormProvider, useWatch } from "react-hook-form";
import { FormError, SelectField } from "@/components/forms/form-fields";
import { useApiForm } from "@/components/forms/use-api-form";
import { Button } from "@/components/ui/button";
import { apiFetch } from "@/lib/client/api";
import { RuleForm, fixedChoice, ruleFormValues } from "@/lib/client/parcel-preset-form";
import type { RateRule } from "@/lib/schemas/parcel-preset";

/** A connection that rates, with its carrier's services (from the server: lib/connections). */
export interface RuleConnection {
  carrierId: string;
  label: string;
  services: { code: string; name: string }[];
}

const KINDS = [
  { value: "cheapest", label: "The cheapest rate" },
  { value: "fastest", label: "The fastest rate" },
  { value: "fixed", label: "A fixed service" },
];

/**
 * The organization's rate rule (`PUT /v1/rate_rule`): which rate the create-label form chooses when rates arrive. A
 * fixed service not offered for a parcel falls back to the cheapest, and the form says so.
 */
export function RateRuleForm({
  rule,
  connections,
  manager,
}: {
  rule: RateRule;
  connections: RuleConnection[];
  manager: boolean;
}) {
  const { form, onSubmit, formError, pending } = useApiForm({
    schema: RuleForm,
    defaultValues: ruleFormValues(rule),
    request: (body) => apiFetch<RateRule>("/v1/rate_rule", { method: "PUT", body }),
    success: "Rate rule saved.",
  });
  const kind = useWatch({ control: form.control, name: "kind" });
  const services = connections.flatMap((c) =>
    c.services.map((s) => ({ value: fixedChoice(c.carrierId, s.code), label: `${c.label}: ${s.name}` })),
  );
  // A saved service whose connection is gone stays choosable, so saving something else is a decision.
  const saved = ruleFormValues(rule).fixed;
  if (saved && !services.some((s) => s.value === saved)) {
    services.unshift({ value: saved, label: `${rule.carrier_id}: ${rule.service} (no active connection)` });
  }
  return (
    <section aria-labelledby="rule-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="rule-heading" className="text-lg font-semibold">
          Rate rule
        </h2>
        <p className="text-sm text-muted-foreground">
          The rate the create-label form chooses when rates arrive; the clerk can still choose another.
          {manager ? "" : " An owner or admin can change it."}
        </p>
      </div>
      <FormProvider {...form}>
        <form noValidate onSubmit={onSubmit} className="grid max-w-md gap-4" aria-labelledby="rule-heading">
          <fieldset disabled={!manager} className="grid gap-4">
            <SelectField name="kind" label="Preselect" options={KINDS} />
            {kind === "fixed" && (
              <SelectField
                name="fixed"
                label="Service"
                placeholder="Choose a service"
                hint="When a parcel cannot go with it, the cheapest rate is chosen instead."
                options={services}
              />
            )}
          </fieldset>
          <FormError>{formError}</FormError>
          {manager && (
            <div>
              <Button type="submit" loading={pending}>
                Save rate rule
              </Button>
            </div>
          )}
        </form>
      </FormProvider>
    </section>
  );
}
