"use client";

import { ArrowDownWideNarrow, CircleAlert, Info, RefreshCw, TriangleAlert } from "lucide-react";
import { RadioGroup, ToggleGroup } from "radix-ui";
import { useEffect, useRef } from "react";
import { TestBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import type { FailureView } from "@/lib/client/create-label/failures";
import { ruleText, type RateRuleSetting } from "@/lib/client/create-label/rate-rule";
import { rateViews, ratesAnnouncement, type RateSort } from "@/lib/client/create-label/rates-view";
import { CarrierMessages } from "@/components/carriers/carrier-messages";
import { RateCard, rateChoice } from "./rate-card";
import type { Quote } from "./use-rates";

/** An active connection the rating will ask (from the server: lib/connections). */
export interface CarrierSummary {
  id: string;
  carrierId: string;
  carrierName: string;
  displayName: string;
  testMode: boolean;
}

interface RatesPanelProps {
  carriers: readonly CarrierSummary[];
  quote: Quote | null;
  stale: boolean;
  pending: boolean;
  failure: FailureView | null;
  sort: RateSort;
  onSort: (sort: RateSort) => void;
  choice: string | null;
  onChoose: (choice: string) => void;
  /** The organization's rate rule, named when it is not the cheapest. */
  rule?: RateRuleSetting;
  /** Why the rule could not be followed for these rates (its service not offered), or null. */
  ruleNote?: string | null;
  /** A purchase is running: the rates it was chosen from stay as they are until it answers. */
  locked: boolean;
  /** The purchase controls, shown under the rates. */
  children?: React.ReactNode;
}

const SORTS: { value: RateSort; label: string }[] = [
  { value: "price", label: "Price" },
  { value: "speed", label: "Speed" },
];

export function RatesPanel(props: RatesPanelProps) {
  const { carriers, quote, stale, pending, failure, sort, onSort, choice, onChoose, rule, ruleNote, locked, children } =
    props;
  const views = quote ? rateViews(quote.rates, sort) : [];
  const labelOf = (ref: string) => carriers.find((c) => c.id === ref)?.displayName;
  const announcement = pending
    ? "Getting rates…"
    : quote
      ? `${stale ? "Rates are out of date. " : ""}${ratesAnnouncement(views, quote.messages)}${ruleNote ? ` ${ruleNote}` : ""}`
      : "";
  const section = useRef<HTMLElement>(null);
  // Stacked under the form (narrow screens), new rates would arrive out of sight: bring them into view, leaving the
  // focus where it is. Beside the form the panel is always in view and nothing moves.
  useEffect(() => {
    const top = section.current?.getBoundingClientRect().top;
    if (quote && top !== undefined && top > window.innerHeight) {
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      section.current?.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
    }
  }, [quote]);
  return (
    <section
      ref={section}
      aria-labelledby="rates-heading"
      className="grid scroll-mt-4 gap-4 rounded-lg border bg-card p-4 shadow-xs"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="rates-heading" className="text-base font-semibold">
          Rates
        </h2>
        <ToggleGroup.Root
          type="single"
          value={sort}
          onValueChange={(v) => v && onSort(v as RateSort)}
          aria-label="Sort rates by"
          className="inline-flex items-center gap-1 rounded-md border border-input p-0.5 text-sm"
        >
          <ArrowDownWideNarrow aria-hidden className="mx-1 size-4 text-muted-foreground" />
          {SORTS.map((s) => (
            <ToggleGroup.Item
              key={s.value}
              value={s.value}
              className="rounded px-2 py-0.5 focus-visible:outline-2 focus-visible:outline-ring data-[state=on]:bg-primary data-[state=on]:text-primary-foreground"
            >
              {s.label}
            </ToggleGroup.Item>
          ))}
        </ToggleGroup.Root>
      </div>

      <CarriersAsked carriers={carriers} />

      <Button
        type="submit"
        variant={quote && !stale && quote.rates.length > 0 ? "outline" : "primary"}
        loading={pending}
        disabled={locked}
      >
        {quote ? <RefreshCw aria-hidden /> : null}
        {pending ? "Getting rates…" : quote ? "Get rates again" : "Get rates"}
      </Button>

      <p role="status" className="sr-only">
        {announcement}
      </p>

      {failure && <FailureBox failure={failure} />}

      {stale && quote && (
        <p
          id="rates-stale"
          className="flex gap-2 rounded-md border border-warning-border bg-warning-muted p-3 text-sm text-warning"
        >
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          The form changed after these rates. Get rates again before buying.
        </p>
      )}

      {pending && !quote && (
        <div className="grid gap-2">
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
          <Skeleton className="h-20" />
        </div>
      )}

      {rule && rule.kind !== "cheapest" && (
        <p className="text-sm text-muted-foreground">Your organization preselects {ruleText(rule)}.</p>
      )}

      {quote && ruleNote && (
        <p className="flex gap-2 rounded-md border border-info-border bg-info-muted p-3 text-sm">
          <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
          {ruleNote}
        </p>
      )}

      {quote && views.length > 0 && (
        <RadioGroup.Root
          aria-label="Rates"
          disabled={locked}
          value={choice ?? ""}
          onValueChange={onChoose}
          aria-describedby={stale ? "rates-stale" : undefined}
          className="grid gap-2"
        >
          {views.map((view) => (
            <RateCard
              key={rateChoice(view.rate)}
              view={view}
              carrierLabel={labelOf(view.rate.carrier_ref) ?? view.rate.carrier_id}
            />
          ))}
        </RadioGroup.Root>
      )}

      {quote && views.length === 0 && <p className="text-sm text-muted-foreground">No carrier offered a rate.</p>}

      {quote && <CarrierMessages messages={quote.messages} />}

      {!quote && !pending && !failure && (
        <p className="text-sm text-muted-foreground">
          Rates need the two countries and postal codes and the parcel&apos;s weight.
        </p>
      )}

      {children}
    </section>
  );
}

function CarriersAsked({ carriers }: { carriers: readonly CarrierSummary[] }) {
  if (carriers.length === 0) {
    return (
      <p className="text-sm text-destructive">
        No active carrier connection can rate. An owner or admin can add one under Settings.
      </p>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-sm text-muted-foreground">
      <span>Asks</span>
      {carriers.map((c) => (
        <span key={c.id} className="inline-flex items-center gap-1 text-foreground">
          {c.displayName}
          {c.testMode && <TestBadge />}
        </span>
      ))}
    </div>
  );
}

export function FailureBox({ failure }: { failure: FailureView }) {
  return (
    <div
      role="alert"
      className="grid gap-2 rounded-md border border-destructive-border bg-destructive-muted p-3 text-sm"
    >
      <p className="flex gap-2 font-medium text-destructive">
        <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
        {failure.text}
      </p>
      {failure.other.length > 0 && (
        <ul className="list-disc pl-9 text-destructive">
          {failure.other.map((o, i) => (
            <li key={i}>{o}</li>
          ))}
        </ul>
      )}
      {failure.messages.length > 0 && <CarrierMessages messages={failure.messages} className="pl-6" />}
    </div>
  );
}
