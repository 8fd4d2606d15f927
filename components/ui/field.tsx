import { useId } from "react";
import { cn } from "@/components/ui/cn";
import { Label } from "@/components/ui/label";

/** What a field hands its control so the label, the hint and the error are announced with it. */
export interface FieldControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  required?: boolean;
}

export interface FieldProps {
  label: React.ReactNode;
  /** Renders the control with the ids that tie it to the label, hint and error: `{(p) => <Input {...p} />}`. */
  children: (control: FieldControlProps) => React.ReactNode;
  hint?: React.ReactNode;
  /** The error shown under the control; its presence marks the control aria-invalid. */
  error?: React.ReactNode;
  /** The control's id (default: generated); set it when something else must point at the control. */
  id?: string;
  required?: boolean;
  className?: string;
}

/** A label, a control, a hint and an error message, tied together with aria-describedby and aria-invalid. */
export function Field({ label, children, hint, error, id, required, className }: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div data-slot="field" className={cn("grid gap-1.5", className)}>
      <Label htmlFor={controlId}>
        {label}
        {required && (
          <span aria-hidden className="text-destructive">
            {" "}
            *
          </span>
        )}
      </Label>
      {children({ id: controlId, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined, required })}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
