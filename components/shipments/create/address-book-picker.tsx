"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { BookUser, BookmarkPlus } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useFormContext } from "react-hook-form";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { addressBookQuery, addressKeys } from "@/lib/client/addresses";
import { apiFetch } from "@/lib/client/api";
import { problemText } from "@/lib/client/problems";
import { savedSummary, savedToValues, valuesToSaved } from "@/lib/client/create-label/address-check";
import type { AddressValues, CreateLabelValues } from "@/lib/client/create-label/form-schema";
import type { SavedAddress } from "@/lib/schemas/address-book";

interface AddressBookActionsProps {
  side: "shipper" | "recipient";
  /** "Ship from" or "Ship to": names the search panel (the buttons are named by the block around them). */
  legend: string;
  /** After the fields were filled from the book: the new address is checked. */
  onFilled: () => void;
}

/**
 * The address book beside an address block: a search of `/v1/addresses?q=` whose result fills the block's fields,
 * and "Save to address book" for what the block holds.
 */
export function AddressBookActions({ side, legend, onFilled }: AddressBookActionsProps) {
  const { getValues, setValue } = useFormContext<CreateLabelValues>();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const save = useApiMutation<AddressValues, SavedAddress>({
    request: (values) => apiFetch<SavedAddress>("/v1/addresses", { body: valuesToSaved(values) }),
    success: (saved) => `Saved to the address book: ${savedSummary(saved).title}.`,
    refresh: false,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: addressKeys.book }),
  });

  function fill(saved: SavedAddress) {
    const next = savedToValues(saved, getValues(side));
    for (const [field, value] of Object.entries(next) as [keyof AddressValues, string | boolean][]) {
      setValue(`${side}.${field}`, value, { shouldDirty: true });
    }
    setOpen(false);
    onFilled();
  }

  return (
    <div className="flex flex-wrap gap-2">
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button type="button" size="sm" variant="outline">
            <BookUser aria-hidden /> Address book
          </Button>
        </PopoverTrigger>
        <PopoverContent aria-label={`Address book for ${legend}`}>
          <BookSearch onPick={fill} />
        </PopoverContent>
      </Popover>
      <Button
        type="button"
        size="sm"
        variant="ghost"
        loading={save.isPending}
        onClick={() => save.mutate(getValues(side))}
      >
        <BookmarkPlus aria-hidden /> Save to address book
      </Button>
    </div>
  );
}

/** The search field and its results: Tab goes from the field to each result, Enter or a click picks it. */
function BookSearch({ onPick }: { onPick: (saved: SavedAddress) => void }) {
  const id = useId();
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  // One request once the typing pauses, not one per key.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(q), 250);
    return () => clearTimeout(timer);
  }, [q]);
  const book = useQuery({ ...addressBookQuery(search), placeholderData: keepPreviousData });
  const results = book.data?.results ?? [];
  const summary = book.isError
    ? problemText(book.error)
    : book.isPending
      ? "Searching…"
      : results.length === 0
        ? search.trim()
          ? "No saved address matches."
          : "The address book is empty: save an address with “Save to address book”."
        : `${book.data.count} saved ${book.data.count === 1 ? "address" : "addresses"}${
            book.data.count > results.length ? `, the first ${results.length} shown` : ""
          }.`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={`${id}-q`}>Search the address book</Label>
      <Input
        id={`${id}-q`}
        type="search"
        autoComplete="off"
        placeholder="Name, company, street, city or postal code"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        aria-describedby={`${id}-summary`}
      />
      <p id={`${id}-summary`} role="status" className="text-xs text-muted-foreground">
        {summary}
      </p>
      {results.length > 0 && (
        <ul className="grid max-h-72 gap-1 overflow-y-auto" aria-label="Saved addresses">
          {results.map((saved) => {
            const { title, detail } = savedSummary(saved);
            return (
              <li key={saved.id}>
                <button
                  type="button"
                  onClick={() => onPick(saved)}
                  className="grid w-full gap-0.5 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <span className="font-medium">{title}</span>
                  <span className="text-xs text-muted-foreground">{detail}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
