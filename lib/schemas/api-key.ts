import { z } from "zod";
import { Timestamp, requiredText } from "./common";
import { PageQuery, pageOf } from "./pagination";

/**
 * docs/api.md, "API versions": each key answers in its version unless a request sends `Shipwell-Version`. Keys are
 * pinned to the current version when made, so a later version never changes what an existing integration receives.
 */
export const API_VERSIONS = ["2021-07", "2026-11"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = "2026-11";

export const ApiVersionSchema = z.enum(API_VERSIONS);

export const ApiKeyCreate = z
  .object({
    name: requiredText(100),
    api_version: ApiVersionSchema.nullish().transform((v) => v ?? CURRENT_API_VERSION),
  })
  .strict()
  .meta({ id: "ApiKeyCreate" });
export type ApiKeyCreate = z.output<typeof ApiKeyCreate>;

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The first characters, to recognise a key in a list; the key itself is shown once, at creation. */
    prefix: z.string(),
    api_version: ApiVersionSchema,
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKey = z.output<typeof ApiKey>;

export const CreatedApiKey = ApiKey.extend({
  /** The key: shown only in this answer, stored only as a hash. */
  key: z.string(),
}).meta({ id: "CreatedApiKey" });

export const ApiKeyList = pageOf(ApiKey, "ApiKeyList");
export const ApiKeyListQuery = PageQuery.strict();
