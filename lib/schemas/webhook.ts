import { z } from "zod";
import { ApiVersionSchema } from "./api-key";
import { Timestamp, blankIsNull, optionalText } from "./common";
import { EVENT_TYPES, type EventType } from "./event";
import { PageQuery, pageOf } from "./pagination";

/** docs/api.md, "Webhooks and events". */
const MAX_URL_LENGTH = 2000;

/**
 * What every endpoint URL must be, whatever the operator allows: an absolute http(s) URL without a user name or
 * password (a secret in a URL ends up in logs). Stored as the URL parser writes it (host in lower case, `/` path), so
 * the address checked here and at delivery is the one sent to. Whether plain http or a private address is allowed
 * depends on the endpoint's mode and the operator's settings: lib/webhooks/endpoint-url.ts.
 */
const EndpointUrl = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(MAX_URL_LENGTH)
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be an absolute http or https URL" });
      return z.NEVER;
    }
    if ((url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname) {
      ctx.addIssue({ code: "custom", message: "must be an absolute http or https URL" });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "must not contain a user name or password" });
      return z.NEVER;
    }
    // Port 0 is no port a receiver can listen on: every delivery would fail, five days until the endpoint is disabled.
    if (url.port === "0") {
      ctx.addIssue({ code: "custom", message: "must not use port 0" });
      return z.NEVER;
    }
    if (url.href.length > MAX_URL_LENGTH) {
      ctx.addIssue({ code: "custom", message: `must be at most ${MAX_URL_LENGTH} characters` });
      return z.NEVER;
    }
    return url.href;
  })
  .describe("Where events are sent: https (http only for test-mode endpoints unless the operator allows it)");

export type EnabledEvent = EventType | "*";
const ENABLED_EVENTS = [...EVENT_TYPES, "*"] as const;

/**
 * The event types an endpoint receives: a list of types, or `["*"]` (also written `"*"`) for all of them, including
 * types added later. Duplicates are dropped; a list holding `*` is `["*"]`.
 */
const EnabledEvents = z
  .preprocess(
    (v) => (v === "*" ? ["*"] : v),
    z
      .array(z.enum(ENABLED_EVENTS))
      .min(1)
      .max(ENABLED_EVENTS.length * 2),
  )
  .transform((types): EnabledEvent[] => (types.includes("*") ? ["*"] : [...new Set(types)]))
  .describe('Event types to receive, or ["*"] for every type');

export const WebhookCreate = z
  .object({
    url: EndpointUrl,
    description: optionalText(500),
    enabled_events: EnabledEvents,
    enabled: z
      .boolean()
      .nullish()
      .transform((v) => v ?? true),
    /** Test-mode endpoints receive the events of test-mode resources; live ones, of live resources. */
    test_mode: z
      .boolean()
      .nullish()
      .transform((v) => v ?? true),
    /** The API version events' `data` is written in; the request's version when not given. */
    api_version: ApiVersionSchema.nullish().transform((v) => v ?? null),
  })
  .meta({ id: "WebhookCreate" });
export type WebhookCreate = z.output<typeof WebhookCreate>;

/** PATCH: absent, `null` (and `""` for text) leave a field as it is (docs/api.md, "Requests"). */
const unchanged = <T extends z.ZodType>(schema: T) =>
  blankIsNull(schema).transform((v): z.output<T> | undefined => v ?? undefined);

export const WebhookUpdate = z
  .object({
    url: unchanged(EndpointUrl),
    description: unchanged(z.string().trim().max(500)),
    enabled_events: unchanged(EnabledEvents),
    /** `true` also clears `disabled_reason` and `failing_since`: the endpoint starts again with a clean record. */
    enabled: unchanged(z.boolean()),
  })
  .meta({ id: "WebhookUpdate" });
export type WebhookUpdate = z.output<typeof WebhookUpdate>;

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    enabled_events: z.array(z.enum(ENABLED_EVENTS)),
    enabled: z.boolean(),
    /** Why a disabled endpoint is disabled: `user` (PATCH), `gone` (it answered 410), `failing` (5 days of failures). */
    disabled_reason: z.enum(["user", "gone", "failing"]).nullable(),
    test_mode: z.boolean(),
    api_version: ApiVersionSchema,
    /** The first failed attempt since the last success; null while the endpoint answers. */
    failing_since: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpoint = z.output<typeof WebhookEndpoint>;

/** Creation and rotation answer the signing secret, once: it is stored encrypted and never shown again. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  /** `whsec_` and 32 random bytes in base64, as Standard Webhooks libraries take it. */
  secret: z.string(),
}).meta({ id: "WebhookEndpointWithSecret" });
export type WebhookEndpointWithSecret = z.output<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointList = pageOf(WebhookEndpoint, "WebhookEndpointList");
export const WebhookEndpointListQuery = PageQuery.strict();
