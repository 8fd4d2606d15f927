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
  /**
   * A finding about the value that is not the form's own error (an address check): shown under the control and
   * announced with it; at level "error" it also marks the control aria-invalid.
   */
  notice?: { level: "error" | "warning" | "info"; text: React.ReactNode };
  /** The control's id (default: generated); set it when something else must point at the control. */
  id?: string;
  required?: boolean;
  className?: string;
}

/** A label, a control, a hint and an error message, tied together with aria-describedby and aria-invalid. */
const NOTICE_TONE = {
  error: "font-medium text-destructive",
  warning: "font-medium text-warning",
  info: "text-muted-foreground",
} as const;

export function Field({ label, children, hint, error, notice, id, required, className }: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const noticeId = notice ? `${controlId}-notice` : undefined;
  const describedBy = [errorId, noticeId, hintId].filter(Boolean).join(" ") || undefined;
  const invalid = !!error || notice?.level === "error";
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
      {children({
        id: controlId,
        "aria-describedby": describedBy,
        "aria-invalid": invalid ? true : undefined,
        required,
      })}
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
      {notice && (
        <p id={noticeId} data-level={notice.level} className={cn("text-xs", NOTICE_TONE[notice.level])}>
          {notice.text}
        </p>
      )}
    </div>
  );
}
