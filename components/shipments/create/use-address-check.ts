"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { addressCheckQuery } from "@/lib/client/addresses";
import {
  addressKey,
  addressToCheck,
  applySuggestion,
  checkable,
  type FieldNotice,
  fieldNotices,
} from "@/lib/client/create-label/address-check";
import type { AddressValues, CreateLabelValues } from "@/lib/client/create-label/form-schema";
import type { AddressValidationResult } from "@/lib/schemas/address-book";

type Side = "shipper" | "recipient";
type Suggestion = AddressValidationResult["suggestions"][number];

/** The wait after the focus leaves the block: tabbing from one field to a button beside it is not leaving. */
const DEBOUNCE_MS = 400;

/**
 * The address check of one side of the create-label form: asked when the focus leaves the address block (debounced),
 * once per distinct address and carrier (the query cache), and shown only while the form still holds the address
 * that was checked. Accepting a suggestion writes its changed fields and checks the new address.
 */
export function useAddressCheck(side: Side, carrier: string | null) {
  const { control, getValues, setValue } = useFormContext<CreateLabelValues>();
  const values = useWatch({ control, name: side }) as AddressValues;
  const current = addressKey(values);
  const [asked, setAsked] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const active = asked !== null && asked === current;
  const query = useQuery({ ...addressCheckQuery(addressToCheck(values), carrier), enabled: active });
  const result = active ? query.data : undefined;

  function ask() {
    const now = getValues(side);
    setAsked(checkable(now) ? addressKey(now) : null);
  }

  return {
    result,
    pending: active && query.isFetching,
    failure: active ? query.error : null,
    /** The address as checked (its key): "Keep mine" is remembered for it. */
    key: current,
    notices: result ? fieldNotices(result) : ({} as Partial<Record<keyof AddressValues, FieldNotice>>),
    /** For the block's focusout: checks unless the focus stays in the block. */
    onBlur(event: React.FocusEvent<HTMLElement>) {
      const next = event.relatedTarget as Node | null;
      if (next && event.currentTarget.contains(next)) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(ask, DEBOUNCE_MS);
    },
    onFocus() {
      clearTimeout(timer.current);
    },
    /** Check now (the fields were filled from the address book). */
    check: ask,
    /** The clerk's consent: only the suggestion's changed fields are written, then the new address is checked. */
    accept(suggestion: Suggestion) {
      const next = applySuggestion(getValues(side), suggestion);
      for (const field of suggestion.changed_fields) {
        setValue(`${side}.${field}`, next[field], { shouldDirty: true });
      }
      ask();
    },
  };
}
export type AddressCheck = ReturnType<typeof useAddressCheck>;
