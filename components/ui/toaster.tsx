"use client";

import { useEffect, useState, type ComponentType } from "react";
import type { ToasterProps } from "sonner";
import { afterPageLoad } from "@/lib/client/after-load";

/**
 * Toasts, with sonner kept out of every page's first load: it is fetched once the page has loaded. A toast asked for
 * before then fetches it too and is kept until the region opens (sonner shows the toasts created before its Toaster
 * listened). Every toast of the dashboard comes through `toast` here; lint holds the rest of the dashboard to that.
 */
type Sonner = typeof import("sonner");
let sonner: Promise<Sonner> | undefined;
const loadSonner = () => (sonner ??= import("sonner"));

/** The one place toasts appear; plain (not richColors) so their text keeps AA contrast. */
export function Toaster() {
  const [Sonner, setSonner] = useState<ComponentType<ToasterProps> | null>(null);
  useEffect(() => {
    let live = true;
    const cancel = afterPageLoad(() => void loadSonner().then((m) => live && setSonner(() => m.Toaster)));
    return () => {
      live = false;
      cancel();
    };
  }, []);
  return Sonner ? <Sonner position="bottom-right" closeButton /> : null;
}

type Kind = "success" | "error" | "info";
// One shape for the three: a message, and the toast's options.
type Args = Parameters<Sonner["toast"]["success"]>;
const show =
  (kind: Kind) =>
  (...args: Args): void =>
    void loadSonner().then((m) => m.toast[kind](...args));

export const toast = { success: show("success"), error: show("error"), info: show("info") };
