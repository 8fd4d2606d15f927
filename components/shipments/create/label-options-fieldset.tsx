"use client";

import { RadioGroup } from "radix-ui";
import { useId } from "react";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { CARRIER_LIMITS } from "@/lib/addresses/carrier-limits";
import { isCarrierName } from "@/lib/carriers/names";
import type { LabelType } from "@/lib/carriers/types";
import type { CreateLabelValues } from "@/lib/client/create-label/form-schema";
import { TextField } from "./form-field";

const FORMATS: { value: LabelType; name: string; use: string }[] = [
  { value: "PDF", name: "PDF", use: "Any printer, through the print dialog" },
  { value: "ZPL", name: "ZPL", use: "Zebra thermal printers, sent raw" },
  { value: "PNG", name: "PNG", use: "An image, for other tools" },
];

/**
 * The label's file format, its size (4×6 in is the only one on offer today), and the clerk's reference, with a warning
 * before buying when the chosen rate's carrier keeps fewer of its characters than were typed.
 */
export function LabelOptionsFieldset({ carrier }: { carrier: string | null }) {
  const { control } = useFormContext<CreateLabelValues>();
  const legendId = useId();
  const reference = useWatch({ control, name: "reference" }) ?? "";
  const kept = carrier && isCarrierName(carrier) ? CARRIER_LIMITS[carrier].reference : null;
  const length = reference.trim().length;
  return (
    <Card>
      <fieldset className="@container grid gap-4 p-4">
        <legend className="mb-1 text-base font-semibold">Label</legend>
        <div className="grid gap-1.5">
          <span id={legendId} className="text-sm leading-none font-medium">
            Format
          </span>
          <Controller
            control={control}
            name="label_type"
            render={({ field }) => (
              <RadioGroup.Root
                ref={field.ref}
                aria-labelledby={legendId}
                value={field.value}
                onValueChange={(v) => field.onChange(v as LabelType)}
                className="grid gap-2 @md:grid-cols-3"
              >
                {FORMATS.map((f) => (
                  <RadioGroup.Item
                    key={f.value}
                    value={f.value}
                    className={cn(
                      "grid gap-0.5 rounded-md border border-input bg-card px-3 py-2 text-left",
                      "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
                      "data-[state=checked]:border-primary data-[state=checked]:bg-info-muted",
                    )}
                  >
                    <span className="text-sm font-medium">{f.name}</span>
                    <span className="text-xs text-muted-foreground">{f.use}</span>
                  </RadioGroup.Item>
                ))}
              </RadioGroup.Root>
            )}
          />
        </div>
        <p className="text-sm">
          <span className="font-medium">Size:</span> 4 × 6 in{" "}
          <span className="text-muted-foreground">
            (a FedEx connection set to letter stock prints on a letter sheet)
          </span>
        </p>
        <TextField
          name="reference"
          label="Reference"
          maxLength={100}
          autoComplete="off"
          hint="An order number or note; search for the shipment by it later."
          notice={
            kept !== null && length > kept
              ? {
                  level: "warning",
                  text: `The ${carrier} label prints the first ${kept} characters of the reference; this one has ${length}.`,
                }
              : undefined
          }
        />
      </fieldset>
    </Card>
  );
}
