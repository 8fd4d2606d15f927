"use client";

import { Toaster as Sonner } from "sonner";

/** The one place toasts appear; plain (not richColors) so their text keeps AA contrast. */
export function Toaster(props: React.ComponentProps<typeof Sonner>) {
  return <Sonner position="bottom-right" closeButton {...props} />;
}
