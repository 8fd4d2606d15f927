"use client";

import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { formatMoney } from "@/lib/client/format";
import { serviceName } from "@/lib/client/create-label/rates-view";
import type { Rate } from "@/lib/schemas/rate";

interface PriceChangeDialogProps {
  change: { rate: Rate; chosen: Rate } | null;
  onAccept: () => void;
  onDecline: () => void;
}

/**
 * The carrier rated again when the shipment was created and now asks another price: the clerk chose a price, so
 * the purchase waits for a yes. Nothing is bought until then; the draft stays for the answer.
 */
export function PriceChangeDialog({ change, onAccept, onDecline }: PriceChangeDialogProps) {
  const now = change ? formatMoney(change.rate.total_charge, change.rate.currency) : "";
  const before = change ? formatMoney(change.chosen.total_charge, change.chosen.currency) : "";
  return (
    <AlertDialog open={change !== null} onOpenChange={(open) => !open && onDecline()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>The price changed</AlertDialogTitle>
          <AlertDialogDescription>
            {change && `${serviceName(change.rate)} now costs ${now}; the rate you chose said ${before}.`} Nothing has
            been bought yet.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Don&apos;t buy</AlertDialogCancel>
          <Button onClick={onAccept}>Buy for {now}</Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
