"use client";

import { useState, useTransition } from "react";
import { Check, Copy, UserPlus } from "lucide-react";
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
import { inviteMember } from "@/app/(dashboard)/settings/team/actions";
import type { Role } from "@/lib/auth/roles";

/** Makes an invitation and shows its link once, to copy into a message: no mail server needed. */
export function InviteDialog({ roles }: { roles: Role[] }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [pending, startTransition] = useTransition();

  function change(next: boolean) {
    setOpen(next);
    if (!next) {
      setEmail("");
      setRole("member");
      setLink(null);
      setError(null);
      setCopied(false);
    }
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    startTransition(async () => {
      const result = await inviteMember(email, role);
      if (result.ok) setLink(`${window.location.origin}/invite/${result.token}`);
      else setError(result);
    });
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
          <DialogTitle>{link ? "Copy the invitation link" : "Invite someone"}</DialogTitle>
          <DialogDescription>
            {link
              ? "Send this link to them yourself. It works once, for 7 days, and is shown only now."
              : "They sign in (or create an account) with this email address and accept."}
          </DialogDescription>
        </DialogHeader>
        {link ? (
          <div className="flex items-center gap-2">
            <code
              data-testid="invite-link"
              className="min-w-0 flex-1 truncate rounded-md border bg-muted px-3 py-2 font-mono text-sm"
            >
              {link}
            </code>
            <Button
              variant="outline"
              onClick={async () => {
                await navigator.clipboard.writeText(link);
                setCopied(true);
              }}
            >
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        ) : (
          <form id="invite-form" className="grid gap-4" onSubmit={submit}>
            <Field label="Email" required error={error?.field === "email" ? error.message : undefined}>
              {(p) => (
                <Input
                  {...p}
                  type="email"
                  autoComplete="off"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  maxLength={254}
                />
              )}
            </Field>
            <Field label="Role" hint="Members buy and print labels; admins also manage keys, carriers and the team.">
              {(p) => (
                <NativeSelect {...p} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                  {roles.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
            {error && error.field !== "email" && (
              <p role="alert" className="text-sm text-destructive">
                {error.message}
              </p>
            )}
          </form>
        )}
        <DialogFooter>
          {link ? (
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
