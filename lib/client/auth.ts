import { problemOf, type ApiProblem } from "@/lib/client/api";

/** better-auth's answer to one of its endpoints: whether it worked, and its message when it did not. */
export interface AuthAnswer {
  ok: boolean;
  status: number;
  message?: string;
}

/**
 * The dashboard's one way to call the account endpoints under /api/auth (sign-in, sign-up, sign-out, password,
 * sessions): a same-origin JSON POST with the session cookie. A network failure rejects, as fetch does.
 */
export async function authPost(endpoint: string, body: unknown = {}): Promise<AuthAnswer> {
  const res = await fetch(`/api/auth/${endpoint}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  if (res.ok) return { ok: true, status: res.status };
  const answer = (await res.json().catch(() => ({}))) as { message?: string };
  return { ok: false, status: res.status, message: answer.message };
}

/**
 * A refusal of an account call made while signed in (the password, the sessions) as the problem forms and buttons
 * show. A 401 there means the session ended: said, and offered a sign-in, as on every other request
 * (SessionEndedDialog). On sign-in a 401 is a wrong password instead, so authPost itself does not read it so.
 */
export function signedInProblem(answer: AuthAnswer, fallback: string): ApiProblem {
  return problemOf(answer.status, { errors: [{ code: "refused", message: answer.message ?? fallback, field: null }] });
}
