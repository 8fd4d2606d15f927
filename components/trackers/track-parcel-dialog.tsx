"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { FormProvider } from "react-hook-form";
import { Radar } from "lucide-react";
import { z } from "zod";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useApiForm } from "@/components/forms/use-api-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import type { StoredTracker } from "@/lib/schemas/tracker";

/** The carrier choice that lets the service tell the carrier from the number (docs/api.md, "Managed mode: trackers"). */
const DETECT = "auto";

/** The path's two parts; the number is sent without the spaces a clerk copies from an email. */
const TrackParcel = z.object({
  carrier: z.string().min(1),
  tracking_number: z
    .string()
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().min(1, "must not be empty").max(64)),
});

/**
 * "Track a parcel": carrier and number → POST /v1/trackers/{carrier}/{number} (a tracker already kept for that
 * number is answered as it is), then its page. The carrier is told from the number unless the clerk names one; the
 * carrier's own answer (a 404 when it does not know the number) is shown under the number.
 */
export function TrackParcelDialog({ carriers }: { carriers: string[] }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const { form, onSubmit, formError, pending, result, reset } = useApiForm({
    schema: TrackParcel,
    defaultValues: { carrier: DETECT, tracking_number: "" },
    refresh: false,
    request: async ({ carrier, tracking_number }) => {
      const path = `/v1/trackers/${encodeURIComponent(carrier)}/${encodeURIComponent(tracking_number)}`;
      try {
        return await apiFetch<StoredTracker>(path, { method: "POST" });
      } catch (error) {
        // The path names the number, so an unknown number's 404 belongs under it.
        if (error instanceof ApiProblem && error.status === 404 && !error.errors.some((e) => e.field))
          throw new ApiProblem(
            404,
            [{ code: "not_found", message: error.message, field: "tracking_number" }],
            [],
            null,
          );
        throw error;
      }
    },
    onSuccess: (t) => router.push(`/trackers/${t.id}`),
  });
  const options = [{ value: DETECT, label: "Tell from the number" }, ...carriers.map((c) => ({ value: c, label: c }))];
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Radar aria-hidden />
          Track a parcel
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Track a parcel</DialogTitle>
          <DialogDescription>
            Any number of a carrier you have a connection for, bought here or elsewhere. It is then refreshed in the
            background.
          </DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form id="track-parcel" className="grid gap-4" noValidate onSubmit={onSubmit}>
            <SelectField name="carrier" label="Carrier" required options={options} />
            <TextField
              name="tracking_number"
              label="Tracking number"
              required
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
            />
            <FormError>{formError}</FormError>
          </form>
        </FormProvider>
        <DialogFooter>
          <Button type="submit" form="track-parcel" loading={pending || result !== undefined}>
            Track
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
