"use server";

import { redirect } from "next/navigation";
import { acceptAsUser } from "@/lib/dashboard/invitation";
import { currentSession } from "@/lib/dashboard/session";
import { DomainError } from "@/lib/errors";

/** Accepts the invitation of the form's token as the signed-in person, then opens the organization's shipments. */
export async function acceptInvite(_: string | null, form: FormData): Promise<string | null> {
  const token = String(form.get("token") ?? "");
  const session = await currentSession();
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`);
  try {
    await acceptAsUser(token, session.ctx);
  } catch (err) {
    if (err instanceof DomainError) return err.message;
    throw err;
  }
  redirect("/shipments");
}
