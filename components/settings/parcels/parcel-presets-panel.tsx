"use client";

import { Box, Plus } from "lucide-react";
import { FormError } from "@/components/forms/form-fields";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { ConfirmDialog } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { apiFetch } from "@/lib/client/api";
import { problemText } from "@/lib/client/problems";
import type { ParcelPreset } from "@/lib/schemas/parcel-preset";
import { PresetDialog } from "./preset-dialog";

const size = (p: ParcelPreset) => `${p.length} × ${p.width} × ${p.height} ${p.dimension_unit.toLowerCase()}`;
const weight = (p: ParcelPreset) => (p.weight ? `${p.weight} ${p.weight_unit!.toLowerCase()}` : "—");

/**
 * The organization's parcel presets: every member sees them (the create-label form offers them); owners and admins
 * add, edit and delete them, a delete after a confirmation that names the preset.
 */
export function ParcelPresetsPanel({ presets, manager }: { presets: ParcelPreset[]; manager: boolean }) {
  const remove = useApiMutation({
    request: (id: string) => apiFetch<ParcelPreset>(`/v1/parcel_presets/${id}`, { method: "DELETE" }),
    success: (gone) => `Deleted ${gone.name}.`,
    failure: "caller",
  });
  const add = (
    <PresetDialog
      preset={null}
      trigger={
        <Button>
          <Plus aria-hidden /> Add preset
        </Button>
      }
    />
  );
  return (
    <section aria-labelledby="presets-heading" className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="presets-heading" className="text-lg font-semibold">
            Parcel presets
          </h2>
          <p className="text-sm text-muted-foreground">
            Your boxes, offered first by the create-label form; the default one fills every new label&apos;s parcel.
            {manager ? "" : " An owner or admin can change them."}
          </p>
        </div>
        {/* One place, empty or not, so a refresh after adding never swaps the dialog out from under the person. */}
        {manager && add}
      </div>
      {presets.length === 0 ? (
        <EmptyState
          icon={Box}
          title="No parcel presets yet"
          description="The create-label form offers common box sizes until you add your own."
        />
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Size</TableHead>
                <TableHead>Weight</TableHead>
                {manager && (
                  <TableHead>
                    <span className="sr-only">Actions</span>
                  </TableHead>
                )}
              </TableRow>
            </TableHeader>
            <TableBody>
              {presets.map((p) => (
                <TableRow key={p.id}>
                  <TableCell className="font-medium">
                    {p.name}
                    {p.is_default && (
                      <Badge tone="neutral" className="ml-2">
                        Default
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{size(p)}</TableCell>
                  <TableCell className="whitespace-nowrap">{weight(p)}</TableCell>
                  {manager && (
                    <TableCell className="text-right whitespace-nowrap">
                      <div className="inline-flex gap-2">
                        <PresetDialog
                          preset={p}
                          trigger={
                            <Button variant="outline" size="sm" aria-label={`Edit ${p.name}`}>
                              Edit
                            </Button>
                          }
                        />
                        <ConfirmDialog
                          trigger={
                            <Button variant="outline" size="sm" aria-label={`Delete ${p.name}`}>
                              Delete
                            </Button>
                          }
                          title={`Delete the preset “${p.name}”?`}
                          description="Labels already bought keep their own parcel."
                          confirmLabel={`Delete ${p.name}`}
                          onConfirm={async () => {
                            remove.reset();
                            await remove.mutateAsync(p.id);
                          }}
                        >
                          <FormError>{remove.error ? problemText(remove.error) : null}</FormError>
                        </ConfirmDialog>
                      </div>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </section>
  );
}
