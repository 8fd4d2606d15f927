"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { FormProvider } from "react-hook-form";
import { z } from "zod";
import { FormError, TextField } from "@/components/forms/form-fields";
import { useApiForm } from "@/components/forms/use-api-form";
import { Button } from "@/components/ui/button";
import { ApiProblem } from "@/lib/client/api";
import { authPost, type AuthAnswer } from "@/lib/client/auth";

type Mode = "sign-in" | "sign-up";

const COPY: Record<Mode, { endpoint: string; submit: string; busy: string }> = {
  "sign-in": { endpoint: "sign-in/email", submit: "Sign in", busy: "Signing in…" },
  "sign-up": { endpoint: "sign-up/email", submit: "Create account", busy: "Creating account…" },
};

const Credentials = z.object({
  mode: z.enum(["sign-in", "sign-up"]),
  name: z.string().trim().max(200),
  email: z.string().trim().min(1, "must not be empty").max(254),
  password: z.string().min(1, "must not be empty").max(128),
});

/** Sign-up also needs a name and a password of 10 characters (better-auth's minimum, set in lib/auth). */
const SCHEMA = Credentials.refine((v) => v.mode === "sign-in" || v.name.length > 0, {
  path: ["name"],
  message: "must not be empty",
}).refine((v) => v.mode === "sign-in" || v.password.length >= 10, {
  path: ["password"],
  message: "must be at least 10 characters",
});

/** better-auth's refusal as a form-level problem (its 401 is a wrong password here, not an ended session). */
function refused(answer: AuthAnswer, wrong: string): never {
  const message = answer.status === 401 ? wrong : (answer.message ?? "That did not work; try again.");
  throw new ApiProblem(400, [{ code: "refused", message, field: null }], [], null);
}

/**
 * Sign-in and sign-up, friendly to password managers (autocomplete names, one form, real labels). Sign-in answers one
 * message for any wrong email or password, and sign-up one answer for any address, so the form cannot be used to
 * learn who has an account. `email` is filled in when the page knows it (an invitation's sign-up).
 */
export function AuthForm({ mode, next, email = "" }: { mode: Mode; next: string; email?: string }) {
  const router = useRouter();
  const copy = COPY[mode];
  const { form, onSubmit, formError, pending } = useApiForm({
    schema: SCHEMA,
    defaultValues: { mode, name: "", email, password: "" },
    refresh: false,
    request: async ({ name, email, password }) => {
      const answer = await authPost(
        copy.endpoint,
        mode === "sign-up" ? { name, email, password } : { email, password },
      );
      if (!answer.ok) refused(answer, "The email or password is not right.");
      // A sign-up answers alike for a new, a taken or an uninvited address and signs nobody in; signing in with the
      // same password is what tells the person, and only them, whether the account is theirs.
      if (mode === "sign-up") {
        const signedIn = await authPost(COPY["sign-in"].endpoint, { email, password });
        if (!signedIn.ok)
          refused(
            signedIn,
            "No account could be made with these details. If you already have one, sign in; new accounts may need an invitation to this address.",
          );
      }
    },
    onSuccess: () => {
      router.replace(next);
      router.refresh();
    },
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} method="post" className="grid gap-4" noValidate>
        {mode === "sign-up" && <TextField name="name" label="Name" required autoComplete="name" maxLength={200} />}
        <TextField name="email" label="Email" type="email" required autoComplete="username" maxLength={254} />
        <TextField
          name="password"
          label="Password"
          type="password"
          required
          hint={mode === "sign-up" ? "At least 10 characters." : undefined}
          minLength={mode === "sign-up" ? 10 : undefined}
          maxLength={128}
          autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
        />
        <FormError>{formError}</FormError>
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
    </FormProvider>
  );
}
