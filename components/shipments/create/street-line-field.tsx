"use client";

import { useWatch } from "react-hook-form";
import { cn } from "@/components/ui/cn";
import { STREET_LINE_PRINTED } from "@/lib/client/create-label/address-data";
import type { FieldNotice } from "@/lib/client/create-label/address-check";
import type { CreateLabelValues } from "@/lib/client/create-label/form-schema";
import { TextField } from "./form-field";

interface StreetLineFieldProps {
  name: "shipper.address_line1" | "shipper.address_line2" | "recipient.address_line1" | "recipient.address_line2";
  label: string;
  required?: boolean;
  autoComplete: string;
  notice?: FieldNotice;
}

/** A street line with a counter: longer lines are accepted, but UPS and FedEx print only the first 35 characters. */
export function StreetLineField({ name, label, required, autoComplete, notice }: StreetLineFieldProps) {
  const length = (useWatch<CreateLabelValues>({ name }) as string | undefined)?.length ?? 0;
  const over = length > STREET_LINE_PRINTED;
  return (
    <TextField
      name={name}
      label={label}
      required={required}
      autoComplete={autoComplete}
      notice={notice}
      maxLength={200}
      hint={
        <span className={cn("flex justify-between gap-2", over && "font-medium text-warning")}>
          <span>{over ? `Some carriers print only the first ${STREET_LINE_PRINTED} characters.` : ""}</span>
          <span className="tabular-nums">
            {length}/{STREET_LINE_PRINTED}
          </span>
        </span>
      }
    />
  );
}
