"use client";

import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { authPost } from "@/lib/client/auth";

/** Changing the password signs out every other session (a stolen session should not outlive the old password). */
export function ChangePasswordForm() {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    if (form.get("newPassword") !== form.get("confirm")) {
      setError("The two new passwords differ.");
      return;
    }
    setPending(true);
    setError(null);
    try {
      const answer = await authPost("change-password", {
        currentPassword: form.get("currentPassword"),
        newPassword: form.get("newPassword"),
        revokeOtherSessions: true,
      });
      if (!answer.ok) {
        setError(answer.message ?? "The password could not be changed.");
        return;
      }
      formElement.reset();
      toast.success("Password changed. Other sessions were signed out.");
    } catch {
      setError("The server could not be reached. Try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="grid max-w-sm gap-4">
      <input type="text" name="username" autoComplete="username" hidden readOnly />
      <Field label="Current password" required>
        {(p) => <Input {...p} name="currentPassword" type="password" autoComplete="current-password" />}
      </Field>
      <Field label="New password" required hint="At least 10 characters.">
        {(p) => (
          <Input {...p} name="newPassword" type="password" minLength={10} maxLength={128} autoComplete="new-password" />
        )}
      </Field>
      <Field label="New password again" required error={error ?? undefined}>
        {(p) => <Input {...p} name="confirm" type="password" autoComplete="new-password" />}
      </Field>
      <div>
        <Button type="submit" loading={pending}>
          Change password
        </Button>
      </div>
    </form>
  );
}
