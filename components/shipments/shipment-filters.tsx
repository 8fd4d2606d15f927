"use client";

import { useTransition } from "react";
import { Loader2, X } from "lucide-react";
import { debounce, useQueryStates, type Options } from "nuqs";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { CarrierSelect, SearchField } from "@/components/lists/list-filters";
import { shipmentListParams } from "@/components/shipments/search-params";

/**
 * Search, carrier and dates of the shipments list. Each change rewrites the URL (a new history entry, so Back undoes
 * it), goes back to page 1, and lets the server render the list again; typing in the search box waits for a pause.
 */
export function ShipmentFilters({ carriers }: { carriers: string[] }) {
  const [pending, startTransition] = useTransition();
  const [params, setParams] = useQueryStates(shipmentListParams, { shallow: false, history: "push", startTransition });
  type Changes = Omit<Exclude<Parameters<typeof setParams>[0], null | ((old: typeof params) => unknown)>, "page">;
  const update = (values: Changes, options?: Options) => setParams({ ...values, page: null }, options);
  const setDay = (key: "from" | "to", value: string) => {
    const other = key === "from" ? params.to : params.from;
    const tz = value || other ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
    void update({ [key]: value || null, tz });
  };
  const filtered = Boolean(params.q || params.carrier || params.from || params.to);

  return (
    <div className="flex flex-wrap items-end gap-3">
      <SearchField
        id="shipment-search"
        placeholder="Tracking number, reference, name, city, postal code"
        value={params.q}
        onType={(q) => void update({ q }, { history: "replace", limitUrlUpdates: debounce(400) })}
        onSearch={() => void update({ q: params.q })}
      />
      <CarrierSelect
        id="shipment-carrier"
        carriers={carriers}
        value={params.carrier}
        onChange={(carrier) => void update({ carrier })}
      />
      <div className="grid gap-1.5">
        <Label htmlFor="shipment-from">Created from</Label>
        <Input
          id="shipment-from"
          type="date"
          className="w-40"
          value={params.from ?? ""}
          max={params.to ?? undefined}
          onChange={(e) => setDay("from", e.target.value)}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="shipment-to">Created to</Label>
        <Input
          id="shipment-to"
          type="date"
          className="w-40"
          value={params.to ?? ""}
          min={params.from ?? undefined}
          onChange={(e) => setDay("to", e.target.value)}
        />
      </div>
      {filtered && (
        <Button variant="ghost" onClick={() => void update({ q: null, carrier: null, from: null, to: null, tz: null })}>
          <X aria-hidden />
          Clear filters
        </Button>
      )}
      <p role="status" className="flex h-9 items-center gap-1.5 text-sm text-muted-foreground">
        {pending && (
          <>
            <Loader2 aria-hidden className="size-4 animate-spin" />
            Updating…
          </>
        )}
      </p>
    </div>
  );
}
