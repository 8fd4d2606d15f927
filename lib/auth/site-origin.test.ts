import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { fromThisSite, siteOrigins } from "./site-origin";

/** A request to this server, sent with these headers (a Host that is not the URL's, as behind a load balancer). */
const sent = (headers: Record<string, string>) => new Request("http://localhost/api/auth/update-user", { headers });

describe("siteOrigins", () => {
  afterEach(() => {
    delete process.env.PUBLIC_URL;
    delete process.env.TRUST_PROXY;
    resetEnvCache();
  });

  it("makes the request's origin from a Host that is a name, an IPv4 or a bracketed IPv6 address, with its port", () => {
    expect(siteOrigins(sent({ Host: "Ship.Example.com:8080" }))).toEqual(["http://ship.example.com:8080"]);
    expect(siteOrigins(sent({ Host: "10.1.2.3" }))).toEqual(["http://10.1.2.3"]);
    expect(siteOrigins(sent({ Host: "[fe80::1]:3000" }))).toEqual(["http://[fe80::1]:3000"]);
    expect(siteOrigins(sent({}))).toEqual(["http://localhost"]);
  });

  it("makes no origin of a Host that is not a host: a wildcard, credentials, a path, spaces", () => {
    // `http://*` would be a wildcard to better-auth, trusting every site.
    for (const host of ["*", "*.test", "localhost*", "evil.test@localhost", "localhost/x", "local host", "[::1"]) {
      expect(siteOrigins(sent({ Host: host })), host).toEqual([]);
    }
    process.env.PUBLIC_URL = "https://ship.example.com";
    resetEnvCache();
    expect(siteOrigins(sent({ Host: "*" }))).toEqual(["https://ship.example.com"]);
  });

  it("refuses a wildcard forwarded by a trusted proxy as it refuses one in the Host", () => {
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    const forwarded = { Host: "inner.local", "X-Forwarded-Host": "*", Origin: "http://evil.test" };
    expect(siteOrigins(sent(forwarded))).toEqual([]);
    expect(fromThisSite(sent(forwarded))).toBe(false);
    const named = { ...forwarded, "X-Forwarded-Host": "ship.example.com", Origin: "http://ship.example.com" };
    expect(fromThisSite(sent(named))).toBe(true);
  });
});
