import { readFileSync } from "node:fs";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DatabaseCircuit } from "@/lib/db/circuit";
import { noteOpenFailed, registerCircuit, unregisterCircuit } from "@/lib/db/down";
import { cspNonce, pagePolicy } from "@/lib/security-headers";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { config, proxy } from "@/proxy";

const SESSION = "shipwell.session_token=abc";
const visit = (path: string, headers: Record<string, string> = {}) =>
  proxy(new NextRequest(new URL(path, "http://shipwell.test"), { headers }));

/** The directives of a policy, by name. */
const directives = (policy: string) =>
  new Map(policy.split("; ").map((part) => [part.split(" ")[0], part.split(" ").slice(1)] as const));

const nonceOf = (policy: string) => /'nonce-([^']+)'/.exec(policy)?.[1];

describe("pagePolicy", () => {
  it("allows scripts by nonce and strict-dynamic only, never inline or eval in production", () => {
    const policy = directives(pagePolicy("abc"));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc'", "'strict-dynamic'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    // A nonce in style-src would make browsers ignore its 'unsafe-inline' (lib/security-headers.ts says why it is there).
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("is the policy docs/api.md shows, word for word", () => {
    // The block under "Pages" in the security headers section, its lines joined as one header.
    const api = readFileSync("docs/api.md", "utf8");
    const block = /carry a `Content-Security-Policy`[\s\S]*?```\n([\s\S]*?)```/.exec(api)?.[1];
    const documented = block
      ?.trim()
      .split(/\s*\n\s*/)
      .join(" ");
    expect(documented).toBe(pagePolicy("…"));
  });

  it("adds 'unsafe-eval' for scripts in development only", () => {
    expect(directives(pagePolicy("abc", { dev: true })).get("script-src")).toContain("'unsafe-eval'");
    expect(pagePolicy("abc")).not.toContain("unsafe-eval");
  });
});

describe("cspNonce", () => {
  it("is 128 random bits in base64, different every time", () => {
    const nonces = new Set(Array.from({ length: 1000 }, cspNonce));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("proxy.ts and the policy", () => {
  it("runs for every page, the not-found page of any path included, and for nothing else", () => {
    const runs = (path: string) => unstable_doesMiddlewareMatch({ config, url: `http://shipwell.test${path}` });
    for (const page of ["/", "/shipments", "/shipments/x.pdf", "/track/trk_1", "/sign-in", "/nope.js", "/v1x"]) {
      expect(runs(page), page).toBe(true);
    }
    for (const other of ["/v1", "/v1/shipments", "/api/auth/get-session", "/_next/static/a.js", "/favicon.svg"]) {
      expect(runs(other), other).toBe(false);
    }
  });

  it("gives a page visit the policy, on the answer and on the request Next.js renders from, with one nonce", () => {
    const res = visit("/shipments", { cookie: SESSION });
    const policy = res.headers.get("Content-Security-Policy")!;
    expect(nonceOf(policy)).toBeTruthy();
    // NextResponse.next passes the request's new headers to the renderer as x-middleware-request-* headers.
    expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
  });

  it("overrides a policy the client sent, so a client cannot choose the nonce", () => {
    const res = visit("/sign-in", { "content-security-policy": "script-src 'nonce-chosen'" });
    const policy = res.headers.get("x-middleware-request-content-security-policy")!;
    expect(nonceOf(policy)).not.toBe("chosen");
    expect(res.headers.get("Content-Security-Policy")).toBe(policy);
  });

  it("gives every visit a nonce of its own", () => {
    const nonces = new Set(
      Array.from({ length: 20 }, () => nonceOf(visit("/sign-in").headers.get("Content-Security-Policy")!)),
    );
    expect(nonces.size).toBe(20);
  });

  it("puts the policy on the way to sign-in too", () => {
    const res = visit("/shipments");
    expect(res.status).toBe(307);
    expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  });
});

describe("proxy.ts while the database is away", () => {
  // A circuit as lib/db/client.ts registers it; only whether it is open matters here.
  const circuit = { isOpen: true } as unknown as DatabaseCircuit;
  afterEach(() => unregisterCircuit(circuit));

  it("answers every page 503 at once, with Retry-After, a page that asks again, and the policy", async () => {
    registerCircuit(circuit);
    for (const path of ["/shipments", "/sign-in", "/track/trk_1"]) {
      const res = visit(path, { cookie: SESSION });
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toBe("5");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      const html = await res.text();
      expect(html).toContain('<meta http-equiv="refresh" content="5">');
      expect(html).toContain("<h1>Shipwell cannot reach its database</h1>");
      expect(html).not.toMatch(/<script|<style| style=/);
    }
  });

  it("answers 503 for a second after the database could not be opened at all, then lets a visit try again", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      noteOpenFailed(Date.now());
      expect(visit("/shipments", { cookie: SESSION }).status).toBe(503);
      vi.advanceTimersByTime(999);
      expect(visit("/shipments", { cookie: SESSION }).status).toBe(503);
      vi.advanceTimersByTime(1);
      expect(visit("/shipments", { cookie: SESSION }).status).toBe(200);
      noteOpenFailed(Date.now());
      noteOpenFailed(null);
      expect(visit("/shipments", { cookie: SESSION }).status).toBe(200);
    } finally {
      noteOpenFailed(null);
      vi.useRealTimers();
    }
  });

  it("renders pages again as soon as the circuit closes", () => {
    registerCircuit(circuit);
    unregisterCircuit(circuit);
    expect(visit("/shipments", { cookie: SESSION }).status).toBe(200);
  });
});
