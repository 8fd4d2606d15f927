/**
 * The dashboard bench's HTTP half: an account signed up over better-auth's endpoint, and page requests timed as a
 * signed-in browser sends them. Prints nothing itself.
 */
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import type { Cookie } from "./browser";

/**
 * Signs an account up (the first one owns the default organization), then in, as the sign-up page does (a sign-up
 * signs nobody in by itself): its session cookies, as better-auth sets them.
 */
export async function signUp(base: string, email: string): Promise<Cookie[]> {
  const account = { name: "Bench Clerk", email, password: randomBytes(12).toString("hex") };
  const post = (endpoint: string, body: unknown) =>
    fetch(`${base}/api/auth/${endpoint}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base },
      body: JSON.stringify(body),
    });
  const created = await post("sign-up/email", account);
  if (!created.ok) throw new Error(`sign-up → ${created.status} ${await created.text()}`);
  const res = await post("sign-in/email", { email, password: account.password });
  if (!res.ok) throw new Error(`sign-in → ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((line) => {
    const pair = line.split(";")[0]!;
    const eq = pair.indexOf("=");
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
  });
  if (!cookies.some((c) => c.name.endsWith("session_token"))) throw new Error("sign-in set no session cookie");
  return cookies;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET as a browser sends it (cookie, gzip): ms to the answer's first byte and to its last, bytes on the wire. */
function timedGet(url: string, cookie: string) {
  return new Promise<{ status: number; ttfb: number; total: number; bytes: number }>((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers: { cookie, "accept-encoding": "gzip" } }, (res) => {
      const ttfb = performance.now() - started;
      let bytes = 0;
      res.on("data", (c: Buffer) => (bytes += c.length));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode!, ttfb, total: performance.now() - started, bytes }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** `requests` sequential GETs after 5 warm-up ones (which must answer 200): ascending ms, and the page's size. */
export async function pageTimes(base: string, path: string, cookie: string, requests: number) {
  for (let i = 0; i < 5; i++) {
    const warm = await timedGet(base + path, cookie);
    if (warm.status !== 200) throw new Error(`GET ${path} → ${warm.status}`);
  }
  const ttfb: number[] = [];
  const total: number[] = [];
  let bytes = 0;
  for (let i = 0; i < requests; i++) {
    const r = await timedGet(base + path, cookie);
    ttfb.push(r.ttfb);
    total.push(r.total);
    bytes = r.bytes;
  }
  ttfb.sort((a, b) => a - b);
  total.sort((a, b) => a - b);
  return { ttfb, total, bytes };
}
