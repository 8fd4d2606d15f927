import { authEndpoint } from "@/lib/api/auth-endpoint";

export const ORIGIN = "http://localhost";

export interface Account {
  email: string;
  password: string;
  name: string;
}

let counter = 0;
/** A fresh account's details; emails are unique per run so tests on a shared Postgres never collide. */
export function newAccount(name = "Clerk"): Account {
  counter += 1;
  const unique = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 8)}`;
  return { name, email: `clerk-${unique}@example.test`, password: `correct horse ${unique}` };
}

/** The `Cookie` header a browser would send back after this answer. */
export function cookieFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((c) => !c.endsWith("="))
    .join("; ");
}

/** POSTs to better-auth's endpoint as our sign-in page does (same origin). */
export function authPost(
  path: string,
  body: unknown,
  opts: { cookie?: string; address?: string; origin?: string | null; host?: string } = {},
): Promise<Response> {
  const headers = new Headers({ "Content-Type": "application/json", "X-Forwarded-For": opts.address ?? "10.0.0.1" });
  if (opts.origin !== null) headers.set("Origin", opts.origin ?? ORIGIN);
  if (opts.cookie) headers.set("Cookie", opts.cookie);
  if (opts.host) headers.set("Host", opts.host);
  return authEndpoint(
    new Request(`${ORIGIN}/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
}

/** Signs up and then in, as the sign-up page does (a sign-up signs nobody in by itself); the session's cookie. */
export async function signUp(account: Account, address?: string): Promise<string> {
  const res = await authPost("/sign-up/email", account, { address });
  if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const signedIn = await signIn(account, address);
  if (signedIn.status !== 200) throw new Error(`sign-in after sign-up answered ${signedIn.status}`);
  return cookieFrom(signedIn);
}

export async function signIn(account: Pick<Account, "email" | "password">, address?: string): Promise<Response> {
  return authPost("/sign-in/email", account, { address });
}
