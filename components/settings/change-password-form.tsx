"use client";

import { FormProvider } from "react-hook-form";
import { z } from "zod";
import { FormError, TextField } from "@/components/forms/form-fields";
import { useApiForm } from "@/components/forms/use-api-form";
import { Button } from "@/components/ui/button";
import { authPost, signedInProblem } from "@/lib/client/auth";

const ChangePassword = z
  .object({
    currentPassword: z.string().min(1, "must not be empty"),
    newPassword: z.string().min(10, "must be at least 10 characters").max(128),
    confirm: z.string(),
  })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], message: "The two new passwords differ." });

const EMPTY = { currentPassword: "", newPassword: "", confirm: "" };

/** Changing the password signs out every other session (a stolen session should not outlive the old password). */
export function ChangePasswordForm() {
  const { form, onSubmit, formError, pending, reset } = useApiForm({
    schema: ChangePassword,
    defaultValues: EMPTY,
    refresh: false,
    request: async ({ currentPassword, newPassword }) => {
      const answer = await authPost("change-password", { currentPassword, newPassword, revokeOtherSessions: true });
      if (!answer.ok) throw signedInProblem(answer, "The password could not be changed.");
    },
    success: "Password changed. Other sessions were signed out.",
    onSuccess: () => reset(),
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} method="post" noValidate className="grid max-w-sm gap-4">
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <TextField
          name="currentPassword"
          label="Current password"
          type="password"
          required
          autoComplete="current-password"
        />
        <TextField
          name="newPassword"
          label="New password"
          type="password"
          required
          hint="At least 10 characters."
          maxLength={128}
          autoComplete="new-password"
        />
        <TextField name="confirm" label="New password again" type="password" required autoComplete="new-password" />
        <FormError>{formError}</FormError>
        <div>
          <Button type="submit" loading={pending}>
            Change password
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
