"use client";

import { useSyncExternalStore } from "react";

const nothingChanges = () => () => {};

/**
 * A value only the browser knows (its time zone, that the page's script runs): `onServer()` in the server's HTML and
 * while React hydrates it, `inBrowser()` from the render right after, without a hydration mismatch. Both must return
 * the same value each time they are called (a string, a number, a boolean, null): React compares snapshots with
 * `Object.is`. The value is read once, not watched.
 */
export function useBrowserValue<T>(inBrowser: () => T, onServer: () => T): T {
  return useSyncExternalStore(nothingChanges, inBrowser, onServer);
}
