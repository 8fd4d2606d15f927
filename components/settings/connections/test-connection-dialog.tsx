"use client";

import { CircleCheck, CircleX } from "lucide-react";
import { CarrierMessages } from "@/components/carriers/carrier-messages";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { formatMoney } from "@/lib/client/format";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import { testRateRoute } from "@/lib/client/connection-settings";
import { connectionTestVerdict } from "@/lib/client/connection-test";
import { problemText } from "@/lib/client/problems";
import type { Connection } from "@/lib/schemas/connection";
import type { Message } from "@/lib/schemas/message";
import type { Rate } from "@/lib/schemas/rate";

interface Answer {
  rates: Rate[];
  messages: Message[];
}

/**
 * Test connection: a harmless rate quote (nothing stored, nothing bought) through this connection alone, and the
 * carrier's answer as it came: its rates, or its messages, under a verdict that tells refused credentials from a
 * carrier that cannot be reached (lib/client/connection-test.ts).
 */
export function TestConnectionDialog({ connection }: { connection: Connection }) {
  // Nothing changes, so nothing to refresh; a failure is shown in the dialog, where the answer would be.
  const test = useApiMutation({
    failure: "caller",
    refresh: false,
    request: async (): Promise<Answer> => {
      try {
        return await apiFetch<Answer>("/v1/proxy/rates", {
          body: { ...testRateRoute(connection.carrier_name), carrier_ids: [connection.id] },
        });
      } catch (err) {
        // A carrier's refusal (424) still carries its messages: they are the answer.
        if (err instanceof ApiProblem && err.messages.length > 0) return { rates: [], messages: err.messages };
        throw err;
      }
    },
  });
  const answer = test.data;
  const cheapest = answer?.rates.slice().sort((a, b) => a.total_charge - b.total_charge)[0];
  const verdict = answer && connectionTestVerdict(answer);
  return (
    <Dialog
      onOpenChange={(open) => {
        if (open) test.mutate();
        else test.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button
          variant="outline"
          size="sm"
          disabled={!connection.active}
          title={connection.active ? undefined : "Activate it first"}
        >
          Test <span className="sr-only">{connection.carrier_id}</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Test {connection.carrier_id}</DialogTitle>
          <DialogDescription>
            A quote for a 1 lb parcel from Chicago, IL 60607 to Austin, TX 78701. Nothing is stored or bought.
          </DialogDescription>
        </DialogHeader>
        <div aria-live="polite" className="grid gap-2 text-sm">
          {test.isPending && <p>Asking the carrier…</p>}
          {answer && answer.rates.length > 0 && (
            <p className="flex items-center gap-2 font-medium text-success">
              <CircleCheck aria-hidden className="size-4" />
              The carrier answered with {answer.rates.length} {answer.rates.length === 1 ? "rate" : "rates"}
              {cheapest && `, from ${formatMoney(cheapest.total_charge, cheapest.currency)} (${cheapest.service})`}.
            </p>
          )}
          {verdict && verdict.kind !== "ok" && (
            <p className="flex items-center gap-2 font-medium text-destructive">
              <CircleX aria-hidden className="size-4" /> {verdict.text}
            </p>
          )}
          {answer && <CarrierMessages messages={answer.messages} />}
          {test.isError && (
            <p role="alert" className="flex items-center gap-2 text-destructive">
              <CircleX aria-hidden className="size-4" /> {problemText(test.error)}
            </p>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => test.mutate()} loading={test.isPending}>
            Test again
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
