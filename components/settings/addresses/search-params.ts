import { createLoader, parseAsString } from "nuqs/server";

/** The address book's search, in the URL: read on the server by `loadAddressBookParams`, changed in the browser. */
export const addressBookParams = { q: parseAsString.withDefault("") };

export const loadAddressBookParams = createLoader(addressBookParams);

/** The page the settings list shows: the first 100 that match, newest first (as `GET /v1/addresses` takes it). */
const ADDRESSES_SHOWN = 100;
export function addressBookQuery(q: string) {
  const search = q.trim().slice(0, 100);
  return { q: search || undefined, limit: ADDRESSES_SHOWN, offset: 0 };
}
