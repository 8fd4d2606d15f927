"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { Radar } from "lucide-react";
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
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import type { StoredTracker } from "@/lib/schemas/tracker";

/** The carrier choice that lets the service tell the carrier from the number (docs/api.md, "Managed mode: trackers"). */
const DETECT = "auto";

/**
 * "Track a parcel": carrier and number → POST /v1/trackers/{carrier}/{number} (a tracker already kept for that
 * number is answered as it is), then its page. The carrier is told from the number unless the clerk names one; the
 * carrier's own answer is shown when it does not know the number.
 */
export function TrackParcelDialog({ carriers }: { carriers: string[] }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [carrier, setCarrier] = useState(DETECT);
  const [number, setNumber] = useState("");
  const track = useMutation({
    mutationFn: () =>
      apiFetch<StoredTracker>(
        `/v1/trackers/${encodeURIComponent(carrier)}/${encodeURIComponent(number.replace(/\s+/g, ""))}`,
        { method: "POST" },
      ),
    onSuccess: (t) => router.push(`/trackers/${t.id}`),
  });
  const problem = track.error;
  const numberError =
    problem instanceof ApiProblem
      ? (problem.errors.find((e) => e.field === "tracking_number")?.message ??
        (problem.status === 404 ? problem.message : undefined))
      : undefined;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) track.reset();
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
        <form
          id="track-parcel"
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            track.mutate();
          }}
        >
          <Field label="Carrier" required>
            {(p) => (
              <NativeSelect {...p} value={carrier} onChange={(e) => setCarrier(e.target.value)}>
                <option value={DETECT}>Tell from the number</option>
                {carriers.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field label="Tracking number" required error={numberError}>
            {(p) => (
              <Input
                {...p}
                value={number}
                onChange={(e) => setNumber(e.target.value)}
                maxLength={64}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
              />
            )}
          </Field>
          {problem && !numberError && (
            <p role="alert" className="text-sm text-destructive">
              {problem.message}
            </p>
          )}
        </form>
        <DialogFooter>
          <Button type="submit" form="track-parcel" loading={track.isPending || track.isSuccess}>
            Track
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
