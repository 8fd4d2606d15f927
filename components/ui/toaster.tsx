"use client";

import { useEffect } from "react";
import { Toaster as Sonner } from "sonner";

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])';

/** What Tab stops at inside `root`, in document order (shown, not inert, not taken out with tabindex -1). */
function tabStops(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el.tabIndex >= 0 && !el.closest("[inert]") && el.getClientRects().length > 0,
  );
}

/**
 * Sonner sends the focus back to where it came from when Tab leaves its toasts forward (sonner PR #104): from a page's
 * last control ("Open tracker" after a purchase) Tab then loops between that control and the toast for good. Leaving
 * the toasts forward goes on to the next stop after them instead, or the page's first (as the browser's own cycle
 * would, less its toolbar); Shift+Tab and the toasts' own focus handling are Sonner's.
 */
function useTabPastToasts() {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Tab" || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      const active = document.activeElement as HTMLElement | null;
      const toaster = active?.closest<HTMLElement>("[data-sonner-toaster]");
      if (!active || !toaster || tabStops(toaster).at(-1) !== active) return;
      const outside = tabStops(document).filter((el) => !toaster.contains(el));
      const next =
        outside.find((el) => toaster.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) ?? outside[0];
      if (!next) return;
      event.preventDefault();
      next.focus();
      // Sonner's blur handler has just sent the focus back where it entered from, and let go of it: move on again.
      if (document.activeElement !== next) next.focus();
    }
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, []);
}

/** The one place toasts appear; plain (not richColors) so their text keeps AA contrast. */
export function Toaster(props: React.ComponentProps<typeof Sonner>) {
  useTabPastToasts();
  return <Sonner position="bottom-right" closeButton {...props} />;
}
