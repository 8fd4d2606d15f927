"use client";

import { useState } from "react";
import { Controller, FormProvider, useFormContext, useFormState, useWatch } from "react-hook-form";
import { Pencil, Plus } from "lucide-react";
import { z } from "zod";
import { CheckboxField, FormError, TextField } from "@/components/forms/form-fields";
import { SecretOnce } from "@/components/forms/secret-once";
import { useApiForm } from "@/components/forms/use-api-form";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { apiFetch } from "@/lib/client/api";
import { fieldErrorText } from "@/lib/client/problems";
import { EVENT_TYPES, type EventType } from "@/lib/schemas/event";
import type { WebhookEndpoint } from "@/lib/schemas/webhook";

type Created = WebhookEndpoint & { secret: string };

/** The dialog's values; the URL's rules are the API's (lib/schemas/webhook.ts), checked there. */
const EndpointForm = z
  .object({
    url: z.string().trim().min(1, "must not be empty").max(2000),
    description: z.string().trim().max(500),
    all: z.boolean(),
    enabled_events: z.array(z.enum(EVENT_TYPES)),
    test_mode: z.boolean(),
  })
  .refine((v) => v.all || v.enabled_events.length > 0, {
    path: ["enabled_events"],
    message: "Choose at least one event type, or all events.",
  });

/**
 * Adds an endpoint (POST /v1/webhooks, then its signing secret shown once with a copy button) or, given `endpoint`,
 * changes its URL, description and events (PATCH). Test mode is chosen at creation only: the API never changes it.
 */
export function EndpointFormDialog({ endpoint }: { endpoint?: WebhookEndpoint }) {
  const editing = !!endpoint;
  const all = endpoint ? endpoint.enabled_events.includes("*") : true;
  const [open, setOpen] = useState(false);
  const { form, onSubmit, formError, pending, result, reset } = useApiForm({
    schema: EndpointForm,
    defaultValues: {
      url: endpoint?.url ?? "",
      description: endpoint?.description ?? "",
      all,
      enabled_events: endpoint && !all ? (endpoint.enabled_events as EventType[]) : [],
      test_mode: true,
    },
    fields: ["url", "description", "enabled_events"],
    request: (v) => {
      const enabled_events = v.all ? ["*"] : v.enabled_events;
      const body = { url: v.url, description: v.description, enabled_events };
      return editing
        ? apiFetch<WebhookEndpoint>(`/v1/webhooks/${endpoint.id}`, { method: "PATCH", body })
        : apiFetch<Created>("/v1/webhooks", { body: { ...body, test_mode: v.test_mode } });
    },
    success: editing ? "Endpoint saved." : undefined,
    onSuccess: (saved) => {
      if (!("secret" in saved)) setOpen(false);
    },
  });
  const created = result && "secret" in result ? (result as Created) : null;

  function change(next: boolean) {
    setOpen(next);
    // Closed: a new endpoint's form starts empty again; an edited one from what was saved.
    if (!next) reset();
  }

  const formId = editing ? `edit-${endpoint.id}` : "add-endpoint";
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        {editing ? (
          <Button variant="outline" size="sm">
            <Pencil aria-hidden /> Edit
          </Button>
        ) : (
          <Button>
            <Plus aria-hidden /> Add endpoint
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {created ? "Copy the signing secret" : editing ? "Edit webhook endpoint" : "Add a webhook endpoint"}
          </DialogTitle>
          <DialogDescription>
            {created
              ? "This is the only time the secret is shown. Your receiver verifies each delivery's webhook-signature with it."
              : "Events are sent as signed POST requests (Standard Webhooks)."}
          </DialogDescription>
        </DialogHeader>
        {created ? (
          <SecretOnce value={created.secret} label="Signing secret" testId="signing-secret" />
        ) : (
          <FormProvider {...form}>
            <form id={formId} className="grid gap-4" noValidate onSubmit={onSubmit}>
              <TextField name="url" label="URL" type="url" required hint="https://… (http only for test mode)" />
              <TextField name="description" label="Description" maxLength={500} />
              <EventsFieldset formId={formId} />
              {!editing && (
                <CheckboxField
                  name="test_mode"
                  label="Test mode: receive the events of test-mode shipments and trackers (cannot change later)"
                />
              )}
              <FormError>{formError}</FormError>
            </form>
          </FormProvider>
        )}
        <DialogFooter>
          {created ? (
            <Button onClick={() => change(false)}>Done</Button>
          ) : (
            <Button type="submit" form={formId} loading={pending}>
              {editing ? "Save changes" : "Add endpoint"}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

type Values = z.input<typeof EndpointForm>;

/** All events, or the chosen types; the list's error (none chosen, or the API's) under it. */
function EventsFieldset({ formId }: { formId: string }) {
  const { control } = useFormContext<Values>();
  const all = useWatch({ control, name: "all" });
  const { errors } = useFormState({ control, name: "enabled_events" });
  const message = errors.enabled_events?.message ?? errors.enabled_events?.root?.message;
  const errorId = `${formId}-events-error`;
  return (
    <fieldset className="grid gap-2" aria-describedby={message ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">Events</legend>
      <CheckboxField<Values> name="all" label="All events (including types added later)" />
      {!all && (
        <Controller
          control={control}
          name="enabled_events"
          render={({ field }) => (
            <div className="grid gap-2 pl-6 sm:grid-cols-2">
              {EVENT_TYPES.map((type) => (
                <div key={type} className="flex items-start gap-2">
                  <Checkbox
                    id={`${formId}-${type}`}
                    checked={field.value.includes(type)}
                    onCheckedChange={(on) =>
                      field.onChange(on === true ? [...field.value, type] : field.value.filter((t) => t !== type))
                    }
                    className="mt-0.5"
                  />
                  <Label htmlFor={`${formId}-${type}`} className="font-mono text-xs font-normal">
                    {type}
                  </Label>
                </div>
              ))}
            </div>
          )}
        />
      )}
      {message && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {fieldErrorText("Events", message)}
        </p>
      )}
    </fieldset>
  );
}
