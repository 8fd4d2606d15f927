/**
 * What of a carrier URL may reach the logs. Carriers put secrets in query strings (client_secret on token calls,
 * api keys on some tracking endpoints); logs are shipped to third parties, so those values never reach them.
 */

const DEFAULT_REDACT_KEYS = [
  "password",
  "client_secret",
  "api_key",
  "access_token",
  "refresh_token",
  "token",
  "secret",
  "key",
  "signature",
] as const;

// `api_key`, `api-key` and `apiKey` are the same secret to a human; compare them the same way.
const normalize = (key: string): string => key.toLowerCase().replace(/[-_]/g, "");

export function redactor(extraKeys: readonly string[] = []): (url: string) => string {
  const keys = new Set([...DEFAULT_REDACT_KEYS, ...extraKeys].map(normalize));
  return (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return "[unparseable url]";
    }
    if (url.username || url.password) {
      url.username = "";
      url.password = "";
    }
    for (const name of new Set(url.searchParams.keys())) {
      if (keys.has(normalize(name))) url.searchParams.set(name, "[redacted]");
    }
    // URLSearchParams re-encodes "[redacted]"; keep the log readable.
    return url.toString().replaceAll("%5Bredacted%5D", "[redacted]");
  };
}
