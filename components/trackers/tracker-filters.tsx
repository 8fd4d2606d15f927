"use client";

import { useTransition } from "react";
import { Loader2, Search, X } from "lucide-react";
import { debounce, useQueryStates, type Options } from "nuqs";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { trackerListParams } from "@/components/trackers/search-params";

const ALL_CARRIERS = "all";

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
      <form
        role="search"
        className="grid min-w-56 flex-1 gap-1.5"
        onSubmit={(e) => {
          e.preventDefault();
          void update({ q: params.q });
        }}
      >
        <Label htmlFor="tracker-search">Search</Label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="tracker-search"
            type="search"
            className="pl-8"
            placeholder="Tracking number or reference"
            value={params.q}
            maxLength={100}
            onChange={(e) => void update({ q: e.target.value }, { history: "replace", limitUrlUpdates: debounce(400) })}
          />
        </div>
      </form>
      <div className="grid gap-1.5">
        <Label htmlFor="tracker-carrier">Carrier</Label>
        <Select
          value={params.carrier || ALL_CARRIERS}
          onValueChange={(v) => void update({ carrier: v === ALL_CARRIERS ? null : v })}
        >
          <SelectTrigger id="tracker-carrier" className="w-44">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL_CARRIERS}>All carriers</SelectItem>
            {[...new Set([...carriers, ...(params.carrier ? [params.carrier] : [])])].map((c) => (
              <SelectItem key={c} value={c}>
                {c}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
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
