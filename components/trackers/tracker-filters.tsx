"use client";

import { useTransition } from "react";
import { Loader2, X } from "lucide-react";
import { debounce, useQueryStates, type Options } from "nuqs";
import { Button } from "@/components/ui/button";
import { CarrierSelect, SearchField } from "@/components/lists/list-filters";
import { trackerListParams } from "@/components/trackers/search-params";

/**
 * Search and carrier of the trackers list. Each change rewrites the URL (Back undoes it), goes back to page 1, and
 * lets the server render the list again; typing waits for a pause.
 */
export function TrackerFilters({ carriers }: { carriers: string[] }) {
  const [pending, startTransition] = useTransition();
  const [params, setParams] = useQueryStates(trackerListParams, { shallow: false, history: "push", startTransition });
  const update = (values: { q?: string | null; carrier?: string | null }, options?: Options) =>
    setParams({ ...values, page: null }, options);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <SearchField
        id="tracker-search"
        placeholder="Tracking number or reference"
        value={params.q}
        onType={(q) => void update({ q }, { history: "replace", limitUrlUpdates: debounce(400) })}
        onSearch={() => void update({ q: params.q })}
      />
      <CarrierSelect
        id="tracker-carrier"
        carriers={carriers}
        value={params.carrier}
        onChange={(carrier) => void update({ carrier })}
      />
      {(params.q || params.carrier) && (
        <Button variant="ghost" onClick={() => void update({ q: null, carrier: null })}>
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
