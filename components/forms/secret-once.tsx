import { CopyButton } from "@/components/forms/copy-button";

/**
 * A secret (an API key, a signing secret, an invitation link) shown the one time it exists in clear, with a copy
 * button. The dialog that shows it says it will not be shown again; closing the dialog forgets it.
 */
export function SecretOnce({ value, label, testId }: { value: string; label: string; testId?: string }) {
  return (
    <div className="flex items-center gap-2">
      <code
        data-testid={testId}
        className="min-w-0 flex-1 truncate rounded-md border bg-muted px-3 py-2 font-mono text-sm"
      >
        {value}
      </code>
      <CopyButton value={value} label={label} look="text" />
    </div>
  );
}
