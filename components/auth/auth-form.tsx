"use client";

import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { authPost } from "@/lib/client/auth";

type Mode = "sign-in" | "sign-up";

const COPY: Record<Mode, { endpoint: string; submit: string; busy: string }> = {
  "sign-in": { endpoint: "sign-in/email", submit: "Sign in", busy: "Signing in…" },
  "sign-up": { endpoint: "sign-up/email", submit: "Create account", busy: "Creating account…" },
};

/**
 * Sign-in and sign-up, friendly to password managers (autocomplete names, one form, real labels). Sign-in answers one
 * message for any wrong email or password, and sign-up one answer for any address, so the form cannot be used to
 * learn who has an account. `email` is filled in when the page knows it (an invitation's sign-up), and `invitation`
 * (the link's token) goes with the sign-up then.
 */
export function AuthForm({
  mode,
  next,
  email,
  invitation,
}: {
  mode: Mode;
  next: string;
  email?: string;
  invitation?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const copy = COPY[mode];

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries(
      ["name", "email", "password"].flatMap((k) => (form.has(k) ? [[k, form.get(k)]] : [])),
    );
    if (mode === "sign-up" && invitation) body.invitation = invitation;
    try {
      const answer = await authPost(copy.endpoint, body);
      if (!answer.ok) {
        setError(
          answer.status === 401
            ? "The email or password is not right."
            : (answer.message ?? "That did not work; try again."),
        );
        return;
      }
      // A sign-up answers alike for a new, a taken or an uninvited address and signs nobody in; signing in with the
      // same password is what tells the person, and only them, whether the account is theirs.
      if (mode === "sign-up") {
        const signedIn = await authPost(COPY["sign-in"].endpoint, { email: body.email, password: body.password });
        if (!signedIn.ok) {
          setError(
            signedIn.status === 401
              ? "No account could be made with these details. If you already have one, sign in; new accounts may need an invitation to this address."
              : (signedIn.message ?? "That did not work; try again."),
          );
          return;
        }
      }
      router.replace(next);
      router.refresh();
    } catch {
      setError("The server could not be reached. Check the connection and try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate={false}>
      {mode === "sign-up" && (
        <Field label="Name" required>
          {(p) => <Input {...p} name="name" autoComplete="name" maxLength={200} />}
        </Field>
      )}
      <Field label="Email" required>
        {(p) => <Input {...p} name="email" type="email" autoComplete="username" maxLength={254} defaultValue={email} />}
      </Field>
      <Field label="Password" required hint={mode === "sign-up" ? "At least 10 characters." : undefined}>
        {(p) => (
          <Input
            {...p}
            name="password"
            type="password"
            minLength={mode === "sign-up" ? 10 : undefined}
            maxLength={128}
            autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
          />
        )}
      </Field>
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" loading={pending}>
        {pending ? copy.busy : copy.submit}
      </Button>
      <p className="text-sm text-muted-foreground">
        {mode === "sign-in" ? "New here? " : "Already have an account? "}
        <Link
          className="font-medium text-primary underline underline-offset-2"
          href={`/${mode === "sign-in" ? "sign-up" : "sign-in"}?next=${encodeURIComponent(next)}`}
        >
          {mode === "sign-in" ? "Create an account" : "Sign in"}
        </Link>
      </p>
    </form>
  );
}
