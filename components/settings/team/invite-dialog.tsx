"use client";

import { useState } from "react";
import { FormProvider } from "react-hook-form";
import { UserPlus } from "lucide-react";
import { z } from "zod";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { SecretOnce } from "@/components/forms/secret-once";
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
import { inviteMember } from "@/app/(dashboard)/settings/team/actions";
import { ROLES, type Role } from "@/lib/auth/roles";
import { actionValue } from "@/lib/client/problems";

const Invite = z.object({
  email: z.string().trim().min(1, "must not be empty").max(254),
  role: z.enum(ROLES),
});

/** Makes an invitation and shows its link once, to copy into a message: no mail server needed. */
export function InviteDialog({ roles }: { roles: Role[] }) {
  const [open, setOpen] = useState(false);
  const { form, onSubmit, formError, pending, result, reset } = useApiForm({
    schema: Invite,
    defaultValues: { email: "", role: "member" },
    // The server action revalidates the team page itself.
    refresh: false,
    request: async ({ email, role }) => {
      const { token } = actionValue(await inviteMember(email, role));
      return `${window.location.origin}/invite/${token}`;
    },
  });

  function change(next: boolean) {
    setOpen(next);
    if (!next) reset();
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden /> Invite
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{result ? "Copy the invitation link" : "Invite someone"}</DialogTitle>
          <DialogDescription>
            {result
              ? "Send this link to them yourself. It works once, for 7 days, and is shown only now."
              : "They sign in (or create an account) with this email address and accept."}
          </DialogDescription>
        </DialogHeader>
        {result ? (
          <SecretOnce value={result} label="Invitation link" testId="invite-link" />
        ) : (
          <FormProvider {...form}>
            <form id="invite-form" className="grid gap-4" noValidate onSubmit={onSubmit}>
              <TextField name="email" label="Email" type="email" required autoComplete="off" maxLength={254} />
              <SelectField
                name="role"
                label="Role"
                hint="Members buy and print labels; admins also manage keys, carriers and the team."
                options={roles.map((r) => ({ value: r, label: r }))}
              />
              <FormError>{formError}</FormError>
            </form>
          </FormProvider>
        )}
        <DialogFooter>
          {result ? (
            <Button onClick={() => change(false)}>Done</Button>
          ) : (
            <Button type="submit" form="invite-form" loading={pending}>
              Create invitation link
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
