"use client";

import { CircleAlert, CircleCheck, Info } from "lucide-react";
import { useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { problemText } from "@/lib/client/problems";
import {
  addressNotices,
  isKept,
  keptKey,
  rememberKept,
  residentialMismatch,
  suggestionDiff,
} from "@/lib/client/create-label/address-check";
import type { AddressValues, CreateLabelValues } from "@/lib/client/create-label/form-schema";
import type { AddressValidationResult } from "@/lib/schemas/address-book";
import type { AddressCheck } from "./use-address-check";
import type { DraftOwner } from "./use-draft";

type Result = AddressValidationResult;
type Suggestion = Result["suggestions"][number];
type Source = Suggestion["source"];

interface AddressCheckPanelProps {
  side: "shipper" | "recipient";
  check: AddressCheck;
  owner: DraftOwner;
  /**
   * The recipient's residential flag the shown rates were asked with (rates carry no classification of their own);
   * null before any rates, when the form's own flag is what the next rates will assume.
   */
  ratedResidential?: boolean | null;
}

const tone = {
  error: "border-destructive/40 bg-destructive/5 text-destructive",
  warning: "border-warning-border bg-warning-muted text-warning",
  info: "border-border bg-muted/40 text-muted-foreground",
} as const;

/** What the check found about the address as a whole, its residential flag, and its suggestions to accept or not. */
export function AddressCheckPanel({ side, check, owner, ratedResidential = null }: AddressCheckPanelProps) {
  const { result, pending, failure } = check;
  return (
    <div className="grid gap-2">
      <p role="status" className="text-sm empty:hidden">
        {pending ? (
          <span className="text-muted-foreground">Checking the address…</span>
        ) : failure ? (
          <span className="text-destructive">The address could not be checked: {problemText(failure)}</span>
        ) : result ? (
          <Verdict result={result} />
        ) : null}
      </p>
      {result && !pending && (
        <>
          {result.status !== "invalid" && <Residential result={result} />}
          {side === "recipient" && <ResidentialWarning result={result} rated={ratedResidential} />}
          {addressNotices(result).map((m) => (
            <p key={m.code} className={cn("rounded-md border px-3 py-2 text-sm", tone[m.level])}>
              {m.text}
            </p>
          ))}
          <Suggestions side={side} result={result} check={check} owner={owner} />
        </>
      )}
    </div>
  );
}

function Verdict({ result }: { result: Result }) {
  const by = result.provider ? ` by ${result.provider.carrier_name.toUpperCase()}` : "";
  switch (result.status) {
    case "verified":
      return (
        <span className="inline-flex items-center gap-1.5 text-success">
          <CircleCheck aria-hidden className="size-4" /> Address verified{by}.
        </span>
      );
    case "corrected":
      return <span className="text-warning">Checked{by}: a corrected address is suggested below.</span>;
    case "ambiguous":
      return <span className="text-warning">Checked{by}: more than one address could be meant.</span>;
    case "invalid":
      return (
        <span className="inline-flex items-center gap-1.5 text-destructive">
          <CircleAlert aria-hidden className="size-4" /> This address has problems: fix them before buying.
        </span>
      );
    default: {
      const why = result.messages.find((m) => m.code === "verification_unavailable")?.text;
      return (
        <span className="inline-flex items-start gap-1.5 text-muted-foreground">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>Not verified by a carrier. {why ?? "The offline checks passed."}</span>
        </span>
      );
    }
  }
}

const yesNo = (v: boolean | null) => (v === null ? "unknown" : v ? "yes" : "no");

/** Residential as the carrier classed it, with who said so. */
function Residential({ result }: { result: Result }) {
  const who = result.provider ? result.provider.carrier_name.toUpperCase() : null;
  return (
    <p className="text-sm text-muted-foreground" data-testid="residential">
      Residential: <span className="font-medium text-foreground">{yesNo(result.residential)}</span>
      {who ? ` (per ${who})` : " (no carrier classified it)"}
    </p>
  );
}

const kind = (residential: boolean) => (residential ? "residential" : "commercial");

/** The carrier's class against the one the rates assumed; the flag changes only when the clerk says so. */
function ResidentialWarning({ result, rated }: { result: Result; rated: boolean | null }) {
  const { control, setValue } = useFormContext<CreateLabelValues>();
  const flag = useWatch({ control, name: "recipient.residential" });
  const assumed = rated ?? flag;
  const mismatch = residentialMismatch(result, assumed);
  if (!mismatch) return null;
  const who = result.provider?.carrier_name.toUpperCase() ?? "The carrier";
  const said = rated !== null ? "The rates shown were asked for" : "The next rates will be asked for";
  return (
    <div role="alert" className={cn("grid gap-2 rounded-md border px-3 py-2 text-sm", tone.warning)}>
      <p>
        {who} classes this address as {kind(mismatch.carrier)}. {said} a {kind(mismatch.assumed)} address: the carrier
        may bill the difference (a residential surcharge) after the label is bought.
      </p>
      {flag !== mismatch.carrier && (
        <Button
          type="button"
          size="sm"
          variant="outline"
          className="justify-self-start"
          onClick={() => setValue("recipient.residential", mismatch.carrier, { shouldDirty: true })}
        >
          Mark as {kind(mismatch.carrier)}
        </Button>
      )}
    </div>
  );
}

const TITLES: Record<Source, (result: Result, count: number) => string> = {
  carrier: (result, count) => {
    const who = result.provider?.carrier_name.toUpperCase() ?? "The carrier";
    return count > 1 ? `${who} knows ${count} addresses that could be meant` : `${who} suggests a corrected address`;
  },
  transliteration: () => "Characters a carrier cannot print: a printable spelling",
  phone_format: () => "The phone number in international form",
};

/** Each kind of suggestion as a diff (old -> new per field) with Accept and Keep mine; kept ones stay quiet. */
function Suggestions({
  side,
  result,
  check,
  owner,
}: Omit<AddressCheckPanelProps, "ratedResidential"> & { result: Result }) {
  const { control } = useFormContext<CreateLabelValues>();
  const values = useWatch({ control, name: side }) as AddressValues;
  const storageKey = keptKey(owner.orgId, owner.userId);
  const [, setKeptCount] = useState(0);
  const groups = (["carrier", "transliteration", "phone_format"] as const)
    .map((source) => ({ source, items: result.suggestions.filter((s) => s.source === source) }))
    .filter((g) => g.items.length > 0);
  if (groups.length === 0) return null;

  return groups.map(({ source, items }) => {
    if (isKept(localStorage, storageKey, check.key, source)) {
      return (
        <p key={source} className="text-sm text-muted-foreground">
          Kept as you typed it: {TITLES[source](result, items.length).toLowerCase()} is not applied.
        </p>
      );
    }
    const title = TITLES[source](result, items.length);
    const several = items.length > 1;
    const keep = (
      <Button
        type="button"
        size="sm"
        variant="outline"
        onClick={() => {
          rememberKept(localStorage, storageKey, check.key, source);
          setKeptCount((n) => n + 1);
        }}
      >
        Keep mine
      </Button>
    );
    return (
      <section
        key={source}
        aria-label={title}
        className="grid gap-3 rounded-md border border-warning-border bg-warning-muted/60 p-3 text-sm"
      >
        <h3 className="font-medium">{title}</h3>
        {items.map((suggestion, i) => (
          <div key={i} className="grid gap-2">
            <DiffTable changes={suggestionDiff(values, suggestion)} caption={several ? `Option ${i + 1}` : undefined} />
            <div className="flex flex-wrap gap-2">
              <Button type="button" size="sm" onClick={() => check.accept(suggestion)}>
                {several ? `Accept option ${i + 1}` : "Accept"}
              </Button>
              {!several && keep}
            </div>
          </div>
        ))}
        {several && <div>{keep}</div>}
      </section>
    );
  });
}

function DiffTable({ changes, caption }: { changes: ReturnType<typeof suggestionDiff>; caption?: string }) {
  return (
    <table className="w-full table-fixed border-collapse text-left text-sm">
      {caption && <caption className="text-left font-medium">{caption}</caption>}
      <thead className="sr-only">
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Yours</th>
          <th scope="col">Suggested</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr key={c.field} className="align-top">
            <th scope="row" className="w-1/4 py-0.5 pr-2 font-normal text-muted-foreground">
              {c.label}
            </th>
            <td className="py-0.5 pr-2 break-words">
              <del className="text-foreground/80">{c.from || "(empty)"}</del>
            </td>
            <td className="py-0.5 break-words">
              <span aria-hidden>→ </span>
              <ins className="font-medium text-foreground no-underline">{c.to || "(empty)"}</ins>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
