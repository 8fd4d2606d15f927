"use client";

import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Check, Copy, Pencil, Plus } from "lucide-react";
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
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import { EVENT_TYPES, type EventType } from "@/lib/schemas/event";
import type { WebhookEndpoint } from "@/lib/schemas/webhook";

type Created = WebhookEndpoint & { secret: string };

/**
 * Adds an endpoint (POST /v1/webhooks, then its signing secret shown once with a copy button) or, given `endpoint`,
 * changes its URL, description and events (PATCH). Test mode is chosen at creation only: the API never changes it.
 */
export function EndpointFormDialog({ endpoint, onSaved }: { endpoint?: WebhookEndpoint; onSaved: () => void }) {
  const editing = !!endpoint;
  const initialAll = endpoint ? endpoint.enabled_events.includes("*") : true;
  const initialTypes = endpoint && !initialAll ? (endpoint.enabled_events as EventType[]) : [];
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [all, setAll] = useState(initialAll);
  const [types, setTypes] = useState<EventType[]>(initialTypes);
  const [testMode, setTestMode] = useState(true);
  const [copied, setCopied] = useState(false);
  const [eventsError, setEventsError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => {
      const enabled_events = all ? ["*"] : types;
      return editing
        ? apiFetch<WebhookEndpoint>(`/v1/webhooks/${endpoint.id}`, {
            method: "PATCH",
            body: { url, description, enabled_events },
          })
        : apiFetch<Created>("/v1/webhooks", { body: { url, description, enabled_events, test_mode: testMode } });
    },
    onSuccess: (saved) => {
      onSaved();
      if (!("secret" in saved)) setOpen(false);
    },
  });
  const fieldError = (field: string) =>
    save.error instanceof ApiProblem
      ? save.error.errors.find((e) => e.field === field || e.field?.startsWith(`${field}[`))?.message
      : undefined;
  const created = save.data && "secret" in save.data ? (save.data as Created) : null;

  function change(next: boolean) {
    setOpen(next);
    if (!next) {
      save.reset();
      setCopied(false);
      setEventsError(null);
      if (!editing) {
        setUrl("");
        setDescription("");
        setAll(true);
        setTypes([]);
        setTestMode(true);
      }
    }
  }

  const formId = editing ? `edit-${endpoint.id}` : "add-endpoint";
  const otherError = save.error && !fieldError("url") && !fieldError("description") && !fieldError("enabled_events");
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
          <div className="flex items-center gap-2">
            <code
              data-testid="signing-secret"
              className="min-w-0 flex-1 truncate rounded-md border bg-muted px-3 py-2 font-mono text-sm"
            >
              {created.secret}
            </code>
            <Button
              variant="outline"
              onClick={async () => {
                await navigator.clipboard.writeText(created.secret);
                setCopied(true);
              }}
            >
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        ) : (
          <form
            id={formId}
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              if (!all && types.length === 0) {
                setEventsError("Choose at least one event type, or all events.");
                return;
              }
              setEventsError(null);
              save.mutate();
            }}
          >
            <Field label="URL" required error={fieldError("url")} hint="https://… (http only for test mode)">
              {(p) => <Input {...p} type="url" value={url} onChange={(e) => setUrl(e.target.value)} maxLength={2000} />}
            </Field>
            <Field label="Description" error={fieldError("description")}>
              {(p) => (
                <Input {...p} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
              )}
            </Field>
            <fieldset
              className="grid gap-2"
              aria-describedby={eventsError || fieldError("enabled_events") ? `${formId}-events-error` : undefined}
            >
              <legend className="mb-1 text-sm font-medium">Events</legend>
              <CheckRow
                id={`${formId}-all`}
                label="All events (including types added later)"
                checked={all}
                onChange={setAll}
              />
              {!all && (
                <div className="grid gap-2 pl-6 sm:grid-cols-2">
                  {EVENT_TYPES.map((type) => (
                    <CheckRow
                      key={type}
                      id={`${formId}-${type}`}
                      label={type}
                      mono
                      checked={types.includes(type)}
                      onChange={(on) => setTypes((prev) => (on ? [...prev, type] : prev.filter((t) => t !== type)))}
                    />
                  ))}
                </div>
              )}
              {(eventsError || fieldError("enabled_events")) && (
                <p id={`${formId}-events-error`} role="alert" className="text-sm text-destructive">
                  {eventsError ?? fieldError("enabled_events")}
                </p>
              )}
            </fieldset>
            {!editing && (
              <CheckRow
                id={`${formId}-test`}
                label="Test mode: receive the events of test-mode shipments and trackers (cannot change later)"
                checked={testMode}
                onChange={setTestMode}
              />
            )}
            {otherError && (
              <p role="alert" className="text-sm text-destructive">
                {save.error.message}
              </p>
            )}
          </form>
        )}
        <DialogFooter>
          {created ? (
            <Button onClick={() => change(false)}>Done</Button>
          ) : (
            <Button type="submit" form={formId} loading={save.isPending}>
              {editing ? "Save changes" : "Add endpoint"}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function CheckRow({
  id,
  label,
  checked,
  onChange,
  mono,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  mono?: boolean;
}) {
  return (
    <div className="flex items-start gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} className="mt-0.5" />
      <Label htmlFor={id} className={mono ? "font-mono text-xs font-normal" : "font-normal"}>
        {label}
      </Label>
    </div>
  );
}
