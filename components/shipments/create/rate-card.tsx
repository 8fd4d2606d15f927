"use client";

import { PiggyBank, Zap } from "lucide-react";
import { RadioGroup } from "radix-ui";
import { Badge, TestBadge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { formatMoney } from "@/lib/client/format";
import { breakdownText, deliveryText, serviceName, type RateView } from "@/lib/client/create-label/rates-view";

export const rateChoice = (rate: { carrier_ref: string; service: string }) => `${rate.carrier_ref}:${rate.service}`;

/** One rate as a radio card: arrow keys move between them (Radix RadioGroup), Space chooses. */
export function RateCard({ view, carrierLabel }: { view: RateView; carrierLabel: string }) {
  const { rate } = view;
  const currency = rate.currency;
  const delivery = deliveryText(rate);
  const breakdown = breakdownText(rate);
  return (
    <RadioGroup.Item
      value={rateChoice(rate)}
      className={cn(
        "group grid w-full grid-cols-[1rem_minmax(0,1fr)_auto] items-start gap-x-3 gap-y-1 rounded-md border border-input bg-card p-3 text-left",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        "data-[state=checked]:border-primary data-[state=checked]:bg-info-muted",
      )}
    >
      <span
        aria-hidden
        className="mt-0.5 flex size-4 items-center justify-center rounded-full border border-input bg-card group-data-[state=checked]:border-primary"
      >
        <span className="hidden size-2 rounded-full bg-primary group-data-[state=checked]:block" />
      </span>
      <span className="grid gap-1">
        <span className="text-sm font-semibold">{serviceName(rate)}</span>
        <span className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
          {carrierLabel}
          {rate.test_mode && <TestBadge />}
          {view.cheapest && (
            <Badge tone="success">
              <PiggyBank aria-hidden />
              Cheapest
            </Badge>
          )}
          {view.fastest && (
            <Badge tone="info">
              <Zap aria-hidden />
              Fastest
            </Badge>
          )}
        </span>
        {delivery && <span className="text-xs">{delivery}</span>}
      </span>
      <span className="text-right text-base font-semibold tabular-nums">
        {formatMoney(rate.total_charge, currency)}
      </span>
      <span className="col-span-2 col-start-2 text-xs text-muted-foreground tabular-nums">{breakdown}</span>
    </RadioGroup.Item>
  );
}
