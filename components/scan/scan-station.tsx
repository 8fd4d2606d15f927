"use client";

import { useEffect, useRef, useState } from "react";
import Link from "next/link";
import { useQueryClient } from "@tanstack/react-query";
import { ScanBarcode } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import {
  choosePrintTarget,
  downloadLabelFile,
  labelUrl,
  PRINT_FRAME_TITLE,
  printShipmentLabel,
  type PrintTarget,
} from "@/components/labels/print-label";
import { usePrintPaper } from "@/components/labels/use-print-paper";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import { recipientName } from "@/lib/client/format";
import { readScanCode, type ScanCode } from "@/lib/client/scan-code";
import { PRINT_PAPERS } from "@/lib/client/print-paper";
import type { Shipment } from "@/lib/schemas/shipment";

/** A stored shipment as the list answers it (a stored one always has its id). */
type Found = Pick<Shipment, "status" | "label_type" | "tracking_number" | "reference" | "recipient"> & { id: string };

/** What one scan came to, newest first on the page. */
type Outcome =
  | { kind: "printed" | "downloaded"; code: string; shipment: Found }
  | { kind: "no_label"; code: string; shipment: Found }
  | { kind: "several"; code: string; shipments: Found[]; count: number }
  | { kind: "unknown"; code: string }
  | { kind: "failed"; code: string; message: string };

const MAX_REFERENCE = 100;
const HISTORY = 20;

/** The newest shipments a filter finds (the list's first page), and how many it finds in all. */
interface Listed {
  shipments: Found[];
  count: number;
}

const NONE: Listed = { shipments: [], count: 0 };

async function listed(query: string): Promise<Listed> {
  const page = await apiFetch<{ count: number; results: Found[] }>(`/v1/shipments?${query}&limit=10`);
  return { shipments: page.results, count: page.count };
}

/** The shipments a code names: a shipment id, else an exact reference (an order number), else a tracking number. */
async function findShipments(code: ScanCode): Promise<Listed> {
  if (code.shipmentId) {
    try {
      return { shipments: [await apiFetch<Found>(`/v1/shipments/${code.shipmentId}`)], count: 1 };
    } catch (err) {
      if (err instanceof ApiProblem && err.status === 404) return NONE;
      throw err;
    }
  }
  if (code.text.length <= MAX_REFERENCE) {
    const byReference = await listed(`reference=${encodeURIComponent(code.text)}`);
    if (byReference.shipments.length > 0) return byReference;
  }
  for (const number of code.trackingNumbers) {
    const byNumber = await listed(`tracking_number=${encodeURIComponent(number)}`);
    if (byNumber.shipments.length > 0) return byNumber;
  }
  return NONE;
}

const hasLabel = (s: Found) => s.status !== "created" && s.status !== "cancelled";

/**
 * Scan to print: a pack station's scanner types a code and Enter; the shipment it names has its label printed (or its
 * ZPL file saved for the thermal printer's spooler) and the box is ready for the next scan. Keyboard only: the box
 * keeps focus, and each outcome is announced.
 */
export function ScanStation({ paperKey }: { paperKey: string }) {
  const queryClient = useQueryClient();
  // The paper this person prints on, chosen beside Print on a shipment's page (LabelActions).
  const [paper] = usePrintPaper(paperKey);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  // The state is read by the next render's handler; a scanner's next Enter may come before it.
  const running = useRef(false);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const record = (outcome: Outcome) => setOutcomes((list) => [outcome, ...list].slice(0, HISTORY));

  // Printing focuses the print frame (Chrome prints the focused frame), and focus stays there after the print dialog
  // closes: the next scan would type into nothing. Focus comes back to the box once the frame holds it.
  useEffect(() => {
    const timer = setInterval(() => {
      const active = document.activeElement;
      if (active instanceof HTMLIFrameElement && active.title === PRINT_FRAME_TITLE) input.current?.focus();
    }, 500);
    return () => clearInterval(timer);
  }, []);

  /** Prints or saves one shipment's label; the print target was chosen in the keypress or click itself. */
  async function output(shipment: Found, target: PrintTarget): Promise<"printed" | "downloaded"> {
    if (shipment.label_type === "ZPL") {
      if (!target.frame) target.tab?.close();
      await downloadLabelFile(queryClient, labelUrl(shipment.id));
      return "downloaded";
    }
    await printShipmentLabel(queryClient, shipment.id, shipment.label_type as "PDF" | "PNG", paper, target);
    return "printed";
  }

  async function run(code: string, work: (target: PrintTarget) => Promise<Outcome>) {
    const target = choosePrintTarget();
    running.current = true;
    setBusy(true);
    try {
      const outcome = await work(target);
      if (outcome.kind !== "printed" && !target.frame) target.tab?.close();
      record(outcome);
    } catch (err) {
      if (!target.frame) target.tab?.close();
      record({ kind: "failed", code, message: (err as Error).message });
    } finally {
      running.current = false;
      setBusy(false);
      input.current?.focus();
      input.current?.select();
    }
  }

  function scan(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = readScanCode(input.current?.value ?? "");
    if (!code.text) return;
    if (input.current) input.current.value = "";
    // One label at a time (a print replaces the print frame): a code scanned meanwhile is said to need a rescan,
    // never dropped in silence or left in the box for the next scan to run into.
    if (running.current) {
      record({ kind: "failed", code: code.text, message: "the previous label was still printing; scan this again." });
      return;
    }
    void run(code.text, async (target) => {
      const { shipments: found, count } = await findShipments(code);
      if (found.length === 0) return { kind: "unknown", code: code.text };
      if (found.length > 1) return { kind: "several", code: code.text, shipments: found, count };
      const shipment = found[0]!;
      if (!hasLabel(shipment)) return { kind: "no_label", code: code.text, shipment };
      return { kind: await output(shipment, target), code: code.text, shipment };
    });
  }

  const latest = outcomes[0];
  return (
    <div className="grid max-w-3xl gap-6">
      <form onSubmit={scan} className="flex flex-wrap items-end gap-2" aria-label="Scan to print">
        <Field
          label="Scan or type a code"
          hint={
            "A reference (order number), a tracking number or a shipment id, then Enter." +
            (paper === "label"
              ? ""
              : ` Labels print on ${PRINT_PAPERS.find((p) => p.paper === paper)!.name}, as chosen beside Print on a shipment's page.`)
          }
          className="min-w-0 flex-1"
        >
          {(control) => (
            <Input
              {...control}
              ref={input}
              name="code"
              autoFocus
              autoComplete="off"
              spellCheck={false}
              className="h-11 font-mono text-base"
            />
          )}
        </Field>
        <Button type="submit" size="lg" loading={busy}>
          <ScanBarcode aria-hidden />
          Print
        </Button>
      </form>
      <div role="status" aria-live="polite" className="min-h-6 text-sm font-medium">
        {latest && <OutcomeText outcome={latest} />}
      </div>
      {outcomes.length > 0 && (
        <section aria-labelledby="scan-history" className="grid gap-2">
          <h2 id="scan-history" className="text-sm font-semibold text-muted-foreground">
            This session&apos;s scans
          </h2>
          <ol className="divide-y rounded-lg border bg-card">
            {outcomes.map((outcome, i) => (
              <li key={outcomes.length - i} className="grid gap-2 px-4 py-3 text-sm">
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                  <span className="font-mono text-xs">{outcome.code}</span>
                  <OutcomeText outcome={outcome} />
                </div>
                {outcome.kind === "several" && (
                  <ul className="grid gap-1">
                    {outcome.shipments.map((s) => (
                      <li key={s.id} className="flex flex-wrap items-center gap-2">
                        <Link className="text-primary underline underline-offset-2" href={`/shipments/${s.id}`}>
                          {recipientName(s.recipient)}
                        </Link>
                        <span className="font-mono text-xs text-muted-foreground">{s.tracking_number ?? s.id}</span>
                        {hasLabel(s) && (
                          <Button
                            variant="outline"
                            size="sm"
                            disabled={busy}
                            onClick={() =>
                              run(outcome.code, async (target) => ({
                                kind: await output(s, target),
                                code: outcome.code,
                                shipment: s,
                              }))
                            }
                          >
                            Print this one
                          </Button>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  );
}

function ShipmentLink({ shipment }: { shipment: Found }) {
  return (
    <Link className="text-primary underline underline-offset-2" href={`/shipments/${shipment.id}`}>
      {recipientName(shipment.recipient)}
      {shipment.reference ? ` (${shipment.reference})` : ""}
    </Link>
  );
}

function OutcomeText({ outcome }: { outcome: Outcome }) {
  switch (outcome.kind) {
    case "printed":
      return (
        <span>
          Label sent to print: <ShipmentLink shipment={outcome.shipment} />
        </span>
      );
    case "downloaded":
      return (
        <span>
          ZPL label saved for the thermal printer: <ShipmentLink shipment={outcome.shipment} />
        </span>
      );
    case "no_label":
      return (
        <span>
          No label bought yet for <ShipmentLink shipment={outcome.shipment} />
          {outcome.shipment.status === "cancelled" ? " (its label was voided)" : ""}.
        </span>
      );
    case "several":
      return (
        <span>
          {outcome.count} shipments have this reference: choose one
          {outcome.count > outcome.shipments.length ? ` (the newest ${outcome.shipments.length} are listed)` : ""}.
        </span>
      );
    case "unknown":
      return <span className="text-destructive">No shipment has this code.</span>;
    case "failed":
      return <span className="text-destructive">Not printed: {outcome.message}</span>;
  }
}
