"use client";

import { useTransition } from "react";
import { BookUser, Loader2 } from "lucide-react";
import { debounce, useQueryStates } from "nuqs";
import { FormError } from "@/components/forms/form-fields";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { SearchField } from "@/components/lists/list-filters";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { apiFetch } from "@/lib/client/api";
import { savedSummary } from "@/lib/client/create-label/address-check";
import { problemText } from "@/lib/client/problems";
import type { SavedAddress } from "@/lib/schemas/address-book";
import { addressBookParams } from "./search-params";

/**
 * The organization's address book: searched through the URL (the server lists it), each address deleted through
 * `DELETE /v1/addresses/{id}` after a confirmation that names it. Addresses are added from the create-label form.
 */
export function AddressBookPanel({ addresses, count }: { addresses: SavedAddress[]; count: number }) {
  const [pending, startTransition] = useTransition();
  const [params, setParams] = useQueryStates(addressBookParams, { shallow: false, history: "push", startTransition });
  const remove = useApiMutation({
    request: (id: string) => apiFetch<SavedAddress>(`/v1/addresses/${id}`, { method: "DELETE" }),
    success: (saved) => `Deleted from the address book: ${savedSummary(saved).title}.`,
    failure: "caller",
  });
  return (
    <section aria-labelledby="addresses-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="addresses-heading" className="text-lg font-semibold">
          Address book
        </h2>
        <p className="text-sm text-muted-foreground">
          Ship-from addresses and frequent recipients, offered by the create-label form. Save one there with “Save to
          address book”.
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <SearchField
          id="address-search"
          placeholder="Name, company, street, city or postal code"
          value={params.q}
          onType={(q) => void setParams({ q }, { history: "replace", limitUrlUpdates: debounce(400) })}
          onSearch={() => void setParams({ q: params.q })}
        />
        <p role="status" className="flex h-9 items-center gap-1.5 text-sm text-muted-foreground">
          {pending ? (
            <>
              <Loader2 aria-hidden className="size-4 animate-spin" />
              Updating…
            </>
          ) : (
            `${count} ${count === 1 ? "address" : "addresses"}${count > addresses.length ? `, the first ${addresses.length} shown` : ""}`
          )}
        </p>
      </div>
      {addresses.length === 0 ? (
        <EmptyState
          icon={BookUser}
          title={params.q ? "No saved address matches" : "No saved addresses yet"}
          description={
            params.q ? "Search by name, company, street, city or postal code." : "Save one from the create-label form."
          }
        />
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Address</TableHead>
                <TableHead>Residential</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {addresses.map((saved) => {
                const { title, detail } = savedSummary(saved);
                return (
                  <TableRow key={saved.id}>
                    <TableCell className="font-medium">
                      {title}
                      {saved.is_default_sender && (
                        <Badge tone="neutral" className="ml-2">
                          Default ship-from
                        </Badge>
                      )}
                    </TableCell>
                    <TableCell>{detail}</TableCell>
                    <TableCell>{saved.residential === null ? "Unknown" : saved.residential ? "Yes" : "No"}</TableCell>
                    <TableCell className="text-right">
                      <ConfirmDialog
                        trigger={
                          <Button variant="outline" size="sm">
                            Delete
                          </Button>
                        }
                        title={`Delete “${title}” from the address book?`}
                        description="Labels already bought keep their own copy of the address."
                        confirmLabel={`Delete ${title}`}
                        onConfirm={async () => {
                          remove.reset();
                          await remove.mutateAsync(saved.id);
                        }}
                      >
                        <FormError>{remove.error ? problemText(remove.error) : null}</FormError>
                      </ConfirmDialog>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </section>
  );
}
