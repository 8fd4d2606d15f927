import { queryOptions } from "@tanstack/react-query";
import { isCarrierName } from "@/lib/carriers/names";
import { apiFetch } from "@/lib/client/api";
import type { AddressValidationResult, SavedAddress } from "@/lib/schemas/address-book";
import type { AddressToCheck } from "@/lib/client/create-label/address-check";

/**
 * The addresses room seen from the dashboard (docs/api.md, "Addresses"): one check per distinct address and carrier
 * (react-query keeps the answer, so leaving the same address again asks nothing), and the address book's search.
 */
export const addressKeys = {
  check: ["address-check"] as const,
  book: ["address-book"] as const,
};

/**
 * `POST /v1/addresses/validate` for one address; `carrier` is the chosen rate's, so its line lengths, PO Box rule
 * and character set are checked (a name the API does not know is not sent).
 */
export const addressCheckQuery = (address: AddressToCheck, carrier: string | null) => {
  const carrier_name = carrier && isCarrierName(carrier) ? carrier : null;
  return queryOptions({
    queryKey: [...addressKeys.check, address, carrier_name],
    queryFn: async ({ signal }) => {
      const body = { addresses: [address], carrier_name };
      const answer = await apiFetch<{ results: AddressValidationResult[] }>("/v1/addresses/validate", {
        method: "POST",
        body,
        signal,
      });
      const result = answer.results[0];
      if (!result) throw new Error("The address check answered without a result.");
      return result;
    },
    staleTime: 10 * 60_000,
    retry: false,
  });
};

/** The address book's first page for a search (`q`: name, company, street, city or postal code contains). */
export const addressBookQuery = (q: string) =>
  queryOptions({
    queryKey: [...addressKeys.book, q],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: "8" });
      if (q.trim()) params.set("q", q.trim());
      return apiFetch<{ count: number; results: SavedAddress[] }>(`/v1/addresses?${params}`, { signal });
    },
    staleTime: 30_000,
  });
