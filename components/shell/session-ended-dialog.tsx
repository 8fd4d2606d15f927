"use client";

import { useEffect, useState } from "react";
import { LogIn } from "lucide-react";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { buttonVariants } from "@/components/ui/button-variants";
import { SESSION_ENDED, SESSION_ENDED_EVENT } from "@/lib/client/api";

/**
 * Opens when a request answers 401 (lib/client/api.ts fires the event): the session ended while the page was open.
 * Signing in comes back to this page, where a create-label draft is restored from this browser.
 */
export function SessionEndedDialog() {
  const [here, setHere] = useState<string | null>(null);
  useEffect(() => {
    const open = () => setHere(`${window.location.pathname}${window.location.search}`);
    window.addEventListener(SESSION_ENDED_EVENT, open);
    return () => window.removeEventListener(SESSION_ENDED_EVENT, open);
  }, []);
  return (
    <AlertDialog open={here !== null} onOpenChange={(next) => !next && setHere(null)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{SESSION_ENDED.replace(/\.$/, "")}</AlertDialogTitle>
          <AlertDialogDescription>
            Nothing was lost: what you typed on this page is kept in this browser, and signing in brings you back to it.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          {/* A full page load: the sign-in page must be rendered without the ended session's cookie. */}
          <a className={buttonVariants()} href={`/sign-in?next=${encodeURIComponent(here ?? "/")}`}>
            <LogIn aria-hidden /> Sign in again
          </a>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
