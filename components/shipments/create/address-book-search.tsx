"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Combobox, useDebouncedValue } from "@/components/ui/combobox";
import { addressBookQuery } from "@/lib/client/addresses";
import { savedSummary } from "@/lib/client/create-label/address-check";
import { problemText } from "@/lib/client/problems";
import type { SavedAddress } from "@/lib/schemas/address-book";

/**
 * "Address book": a combobox over `/v1/addresses?q=` (components/ui/combobox.tsx). Typing searches once the typing
 * pauses (Down alone lists the newest), Up/Down move through the saved addresses, Enter or a click fills the block.
 * Loaded after the page (address-book-picker.tsx): React Aria is most of its weight.
 */
export default function AddressBookSearch({ onPick }: { onPick: (saved: SavedAddress) => void }) {
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const search = useDebouncedValue(q, 250);
  // Asked only while the list is open: the page itself loads nothing from the book.
  const book = useQuery({ ...addressBookQuery(search), enabled: open, placeholderData: keepPreviousData });
  return (
    <Combobox
      label="Address book"
      placeholder="Name, company, street, city or postal code"
      inputValue={q}
      onInputChange={setQ}
      items={book.data?.results ?? []}
      itemKey={(saved) => saved.id}
      itemText={(saved) => {
        const { title, detail } = savedSummary(saved);
        return `${title}, ${detail}`;
      }}
      renderItem={(saved) => {
        const { title, detail } = savedSummary(saved);
        return (
          <>
            <span className="font-medium">{title}</span>
            <span className="text-xs text-muted-foreground">{detail}</span>
          </>
        );
      }}
      onSelect={onPick}
      onOpenChange={setOpen}
      loading={book.isFetching}
      error={book.isError ? problemText(book.error) : undefined}
      empty={
        search.trim()
          ? "No saved address matches."
          : "The address book is empty: save an address with “Save to address book”."
      }
    />
  );
}
