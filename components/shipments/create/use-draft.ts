"use client";

import { useEffect, useRef } from "react";
import type { UseFormReturn } from "react-hook-form";
import { SESSION_ENDED_EVENT } from "@/lib/client/api";
import {
  clearDraft,
  draftKey,
  preferencesKey,
  readDraft,
  saveDraft,
  savePreferences,
  withPreferences,
} from "@/lib/client/create-label/draft";
import { defaultValues } from "@/lib/client/create-label/form-defaults";
import type { CreateLabelOutput, CreateLabelValues } from "@/lib/client/create-label/form-schema";

export interface DraftOwner {
  orgId: string;
  userId: string;
}

const LEAVE = "Leave this label? What you typed stays in this browser as a draft.";

/**
 * The create-label form's draft (lib/client/create-label/draft.ts): restored once the page runs, over the server's
 * defaults but under anything typed before hydration (those fields are dirty); saved as the clerk types; after a
 * purchase only the ship-from and parcel stay, for the next label, and the units and format become the person's
 * preferences. Leaving with changes not yet bought asks first (a reload or a closed tab, and the app's own links).
 */
export function useCreateLabelDraft(
  form: UseFormReturn<CreateLabelValues, unknown, CreateLabelOutput>,
  owner: DraftOwner,
) {
  const keys = useRef({ draft: draftKey(owner.orgId, owner.userId), prefs: preferencesKey(owner.orgId, owner.userId) });
  /** The values as restored: leaving asks only when the clerk changed something since. */
  const baseline = useRef<string | null>(null);
  const done = useRef(false);

  useEffect(() => {
    const { draft, prefs } = keys.current;
    const defaults = form.formState.defaultValues as CreateLabelValues;
    const start = readDraft(localStorage, draft, defaults) ?? withPreferences(localStorage, prefs, defaults);
    form.reset(start, { keepDirtyValues: true, keepDefaultValues: true });
    baseline.current = JSON.stringify(start);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = form.watch(() => {
      clearTimeout(timer);
      timer = setTimeout(() => !done.current && saveDraft(localStorage, draft, form.getValues()), 250);
    });
    // Saved at once on the way out, so the last keystrokes before a reload are not lost to the timer.
    const flush = () => !done.current && saveDraft(localStorage, draft, form.getValues());
    const unsaved = () => !done.current && JSON.stringify(form.getValues()) !== baseline.current;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      flush();
      if (unsaved()) event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || link.target === "_blank" || event.defaultPrevented) return;
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const to = new URL(link.href);
      if (to.origin !== location.origin || to.pathname === location.pathname || !unsaved()) return;
      flush();
      if (!window.confirm(LEAVE)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    // An ended session: the draft is saved now, and signing in again (a page load) must not ask to leave it.
    const sessionEnded = () => {
      flush();
      baseline.current = JSON.stringify(form.getValues());
    };
    window.addEventListener(SESSION_ENDED_EVENT, sessionEnded);
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
      window.removeEventListener(SESSION_ENDED_EVENT, sessionEnded);
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [form]);

  /** After a purchase: the next label starts from this one's ship-from and parcel; nothing else is kept. */
  function bought(values: CreateLabelValues) {
    done.current = true;
    const { draft, prefs } = keys.current;
    clearDraft(localStorage, draft);
    savePreferences(localStorage, prefs, values);
    const next = defaultValues({ shipFrom: values.shipper, signer: values.customs.signer });
    saveDraft(localStorage, draft, {
      ...next,
      shipper: values.shipper,
      parcels: values.parcels,
      label_type: values.label_type,
    });
  }

  return { bought };
}
