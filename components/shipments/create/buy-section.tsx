"use client";

import { ShoppingCart } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import type { FailureView } from "@/lib/client/create-label/failures";
import { formatMoney } from "@/lib/client/format";
import { serviceName } from "@/lib/client/create-label/rates-view";
import type { Rate } from "@/lib/schemas/rate";
import { FailureBox } from "./rates-panel";

const PROGRESS = {
  check: "Checking the form…",
  create: "Creating the shipment…",
  buy: "Buying the label…",
  done: "Opening the label…",
} as const;

interface BuySectionProps {
  chosen: Rate | null;
  stale: boolean;
  stage: keyof typeof PROGRESS | null;
  failure: FailureView | null;
  onBuy: () => void;
}

/** The purchase: which rate, the button (locked with its progress from the first click until the answer), and why
 * a purchase failed, with the shipment to open when its outcome must be settled there. */
export function BuySection({ chosen, stale, stage, failure, onBuy }: BuySectionProps) {
  const price = chosen ? formatMoney(chosen.total_charge, chosen.currency) : null;
  return (
    <div className="grid gap-2 border-t pt-4">
      <p className="text-sm text-muted-foreground">
        {chosen
          ? `${serviceName(chosen)}, ${price}${chosen.test_mode ? " (test mode: nothing ships)" : ""}`
          : "Choose a rate to buy its label."}
      </p>
      <p role="status" className="sr-only">
        {stage ? PROGRESS[stage] : ""}
      </p>
      <Button type="button" size="lg" onClick={onBuy} disabled={!chosen || stale} loading={stage !== null}>
        {stage === null && <ShoppingCart aria-hidden />}
        {stage ? PROGRESS[stage] : price ? `Buy label for ${price}` : "Buy label"}
      </Button>
      <p className="text-xs text-muted-foreground">
        <kbd className="rounded border px-1 font-mono">Ctrl</kbd> or{" "}
        <kbd className="rounded border px-1 font-mono">⌘</kbd> +{" "}
        <kbd className="rounded border px-1 font-mono">Enter</kbd> gets rates, or buys the chosen one.
      </p>
      {failure && (
        <>
          <FailureBox failure={failure} />
          {failure.shipmentId && (
            <Link
              href={`/shipments/${encodeURIComponent(failure.shipmentId)}`}
              className="text-sm text-primary underline"
            >
              Open the shipment
            </Link>
          )}
        </>
      )}
    </div>
  );
}
