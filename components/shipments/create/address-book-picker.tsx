"use client";

import { useQueryClient } from "@tanstack/react-query";
import { BookmarkPlus } from "lucide-react";
import dynamic from "next/dynamic";
import { useFormContext } from "react-hook-form";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { addressKeys } from "@/lib/client/addresses";
import { apiFetch } from "@/lib/client/api";
import { savedSummary, savedToValues, valuesToSaved } from "@/lib/client/create-label/address-check";
import type { AddressValues, CreateLabelValues } from "@/lib/client/create-label/form-schema";
import type { SavedAddress } from "@/lib/schemas/address-book";

/**
 * The search comes after the page (React Aria weighs more than the rest of the form's controls); until then a field of
 * the same size holds its place, disabled, so that nothing typed into it is lost.
 */
const AddressBookSearch = dynamic(() => import("./address-book-search"), {
  ssr: false,
  loading: () => (
    <div className="grid gap-1.5" aria-hidden>
      <p className="text-sm leading-none font-medium">Address book</p>
      <Input disabled tabIndex={-1} placeholder="Loading…" />
    </div>
  ),
});

interface AddressBookActionsProps {
  side: "shipper" | "recipient";
  /** After the fields were filled from the book: the new address is checked. */
  onFilled: () => void;
}

/**
 * The address book at the top of an address block: a search of `/v1/addresses?q=` whose pick fills the block's
 * fields, and "Save to address book" for what the block holds. Both are named by the block around them.
 */
export function AddressBookActions({ side, onFilled }: AddressBookActionsProps) {
  const { getValues, setValue } = useFormContext<CreateLabelValues>();
  const queryClient = useQueryClient();
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
    onFilled();
  }

  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="min-w-60 flex-1">
        <AddressBookSearch onPick={fill} />
      </div>
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
