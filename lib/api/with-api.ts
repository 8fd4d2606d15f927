import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Logger } from "pino";
import type { Actor, DomainContext } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import type { Db } from "@/lib/db/tx";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { ValidationError, type FieldProblem } from "@/lib/errors";
import { excerpt, parseInput, rawInputProblems } from "@/lib/validation";
import { roleAllows } from "@/lib/auth/roles";
import { authenticate } from "./authenticate";
import { requestOrigin } from "@/lib/audit/request-origin";
import { ApiError, toErrorResponse } from "./errors";
import { listQueryParameters } from "./openapi";
import { describe, type DescribedHandler, type Operation } from "./operation";
import { requestIdFrom } from "./request-id";
import { rateLimiter } from "./rate-limit";
import { isApiVersion, requestInCurrentVersion, responseInVersion } from "@/lib/versions";
import { API_VERSIONS, CURRENT_API_VERSION, type ApiVersion } from "@/lib/schemas/api-key";
import {
  IDEMPOTENCY_KEY_PATTERN,
  beginIdempotent,
  completeIdempotent,
  releaseIdempotent,
  requestFingerprint,
  type IdempotencySlot,
} from "./idempotency";

const MAX_BODY_BYTES = 1024 * 1024;
// `application/json` or a `+json` type, parameters allowed; not `application/json-seq` (a stream of JSON texts,
// which JSON.parse cannot read) nor any other type that merely starts with "json".
const JSON_MEDIA_TYPE = /^\s*application\/([a-z0-9!#$&^_.+-]+\+)?json\s*(;|$)/i;
// JSON is UTF-8 (RFC 8259): a body declared in another charset would be read wrongly, so it is refused.
const OTHER_CHARSET = /;\s*charset\s*=\s*"?(?!utf-?8"?\s*(;|$))/i;
// Invalid UTF-8 is refused rather than read with replacement characters a client never sent.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** An operation without query parameters takes none: an unknown one is a mistake to name, not to ignore. */
const NO_QUERY = z.object({}).strict();

/** A domain context for one API request. */
interface ApiContext extends DomainContext {
  db: Db;
  actor: Extract<Actor, { type: "api_key" | "user" }>;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/** What a handler returns: JSON with a status, or a ready Response (files). */
export type ApiResult = { status?: number; body: unknown; headers?: Record<string, string> } | Response;

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** The operation's declaration (operation.ts), with its schemas' types kept for the handler's arguments. */
interface Options<P extends z.ZodType, B extends z.ZodType, Q extends z.ZodType> extends Omit<Operation, "public"> {
  params?: P;
  body?: B;
  query?: Q;
}

/** A file sent in place of (or beside) the JSON body, for an operation that declares `upload`. */
interface Upload {
  bytes: Uint8Array;
  filename: string | null;
}

interface HandlerArgs<P extends z.ZodType, B extends z.ZodType, Q extends z.ZodType> {
  ctx: ApiContext;
  /** The file, when the operation takes one and the request sent one. */
  upload: Upload | null;
  params: z.output<P>;
  body: z.output<B>;
  query: z.output<Q>;
  req: Request;
  /** The version the answer is presented in; a verb that records one for later (a webhook endpoint) needs it. */
  version: ApiVersion;
}

async function readBody(req: Request): Promise<string> {
  try {
    return UTF8.decode(await readBytes(req, MAX_BODY_BYTES));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError("invalid_json", "The request body is not valid UTF-8.");
  }
}

function tooLarge(max: number): ApiError {
  const size = max >= 1024 * 1024 ? `${max / (1024 * 1024)} MiB` : `${max} bytes`;
  return new ApiError("payload_too_large", `The request body is larger than ${size}.`);
}

/** The body's bytes, refused past `max` as soon as it says or shows it is larger. */
export async function readBytes(req: Request, max: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > max) throw tooLarge(max);
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const MULTIPART = /^\s*multipart\/form-data\s*;/i;

/**
 * The file an `upload` operation was sent, with the JSON body that came beside it (the form's `options` field, or
 * the `Shipwell-Options` header); null when the request is plain JSON. The fingerprint covers both, for idempotency.
 */
async function readUpload(
  req: Request,
  upload: NonNullable<Operation["upload"]>,
): Promise<{ upload: Upload; optionsText: string; fingerprint: string } | null> {
  const type = req.headers.get("content-type") ?? "";
  const mediaType = type.split(";")[0]!.trim().toLowerCase();
  let file: Upload;
  let optionsText: string;
  if (MULTIPART.test(type)) {
    const bytes = await readBytes(req, upload.maxBytes);
    let form: FormData;
    try {
      form = await new Response(Buffer.from(bytes), { headers: { "content-type": type } }).formData();
    } catch {
      throw new ApiError("validation_error", "The multipart body cannot be read.", { field: "file" });
    }
    const part = form.get("file");
    if (!(part instanceof Blob)) {
      throw new ApiError("validation_error", "is required: the file as a form field named `file`", { field: "file" });
    }
    file = { bytes: new Uint8Array(await part.arrayBuffer()), filename: part instanceof File ? part.name : null };
    const options = form.get("options");
    optionsText = typeof options === "string" ? options : "{}";
  } else if (upload.types.includes(mediaType)) {
    file = { bytes: await readBytes(req, upload.maxBytes), filename: null };
    optionsText = req.headers.get("shipwell-options") ?? "{}";
  } else {
    return null;
  }
  const digest = createHash("sha256").update(file.bytes).digest("hex");
  return { upload: file, optionsText, fingerprint: `${optionsText}\n${digest}` };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
}

/** docs/api.md, "API versions": the `Shipwell-Version` header, else the key's own version. */
function versionOf(req: Request, keyVersion: string): ApiVersion {
  const asked = req.headers.get("shipwell-version");
  if (asked === null) return isApiVersion(keyVersion) ? keyVersion : CURRENT_API_VERSION;
  const trimmed = asked.trim();
  if (isApiVersion(trimmed)) return trimmed;
  throw new ApiError("validation_error", `must be one of: ${API_VERSIONS.join(", ")}`, { field: "Shipwell-Version" });
}

/** A JSON answer as the request's API version presents it (errors and files are the same in every version). */
function inVersion(result: ApiResult, version: ApiVersion, operation: Operation): ApiResult {
  const schema = operation.doc.response;
  if (result instanceof Response || (result.status ?? 200) >= 300 || !schema || "files" in schema) return result;
  return { ...result, body: responseInVersion(version, schema, result.body) };
}

function toResponse(result: ApiResult, extraHeaders: Record<string, string>): Response {
  if (result instanceof Response) {
    for (const [k, v] of Object.entries(extraHeaders)) result.headers.set(k, v);
    return result;
  }
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    // Tenant data: no browser or shared cache keeps a copy. (Files set their own; the label's is no-store too.)
    "Cache-Control": "no-store",
    ...extraHeaders,
    ...result.headers,
  });
  return new Response(JSON.stringify(result.body), { status: result.status ?? 200, headers });
}

/**
 * Stores what the request answered so a retry replays it. Client and carrier errors are answers too; a server
 * fault frees the key so a retry runs again; a file is not replayable, so it frees the key as well. Failing to
 * record never changes the answer: a label already bought must reach the client.
 */
async function recordIdempotent(db: Db, slot: IdempotencySlot, result: ApiResult, logger: Logger) {
  try {
    if (result instanceof Response || (result.status ?? 200) >= 500) await releaseIdempotent(db, slot);
    else await completeIdempotent(db, slot, result.status ?? 200, result.body);
  } catch (err) {
    logger.error({
      msg: "could not record the idempotent response; the key stays locked until it expires",
      key: slot.key,
      err,
    });
  }
}

/**
 * The query as one value per name. A list parameter given more than once (`status=a&status=b`, as clients write an
 * array by default) is read as its values comma-separated; any other given more than once is a problem on it, never
 * its last value alone with the others dropped unchecked.
 */
function queryOf(
  params: URLSearchParams,
  lists: ReadonlySet<string>,
): { query: Record<string, string>; repeated: FieldProblem[] } {
  const values = new Map<string, string[]>();
  for (const [name, value] of params) values.set(name, [...(values.get(name) ?? []), value]);
  const repeated: FieldProblem[] = [];
  for (const [name, given] of values) {
    if (given.length > 1 && !lists.has(name)) {
      repeated.push({ field: excerpt(name), message: "is given more than once: send it once" });
    }
  }
  // fromEntries, not assignment: a parameter named `__proto__` stays a parameter (and is refused as unknown).
  const query = Object.fromEntries([...values].map(([name, given]) => [name, given.join(",")]));
  return { query, repeated };
}

type RouteHandler = (req: Request, routeCtx?: RouteContext) => Promise<Response>;

/**
 * Every /v1 handler runs inside this: request id → auth → org context → rate limit → body parsing and
 * validation → idempotency → handler → error mapping → one log line. The options are also the operation's
 * declaration, from which the OpenAPI document is generated (lib/api/openapi.ts).
 */
export function withApi<
  P extends z.ZodType = z.ZodType<Record<string, never>>,
  B extends z.ZodType = z.ZodType<undefined>,
  Q extends z.ZodType = z.ZodType<Record<string, never>>,
>(
  options: Options<P, B, Q>,
  handler: (args: HandlerArgs<P, B, Q>) => Promise<ApiResult>,
): DescribedHandler<RouteHandler> {
  const operation: Operation = options;
  const failureBody = options.carrierFailure ?? {};
  // The query parameters that take a comma-separated list, worked out on the first request.
  let lists: Set<string> | undefined;
  return describe(async (req: Request, routeCtx?: RouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFrom(req);
    const baseHeaders: Record<string, string> = { "X-Request-ID": requestId };
    let orgId: string | null = null;
    let response: Response;
    try {
      const db = await getDb();
      const who = await authenticate(req, db);
      orgId = who.orgId;
      // The dashboard speaks the current version; a key its own unless the request names one.
      const version = versionOf(req, who.type === "api_key" ? who.apiVersion : CURRENT_API_VERSION);
      baseHeaders["Shipwell-Version"] = version;

      const limit = await rateLimiter.admit(
        who.type === "api_key" ? who.id : `user:${who.id}`,
        env().RATE_LIMIT_PER_MINUTE,
      );
      baseHeaders["X-RateLimit-Limit"] = String(limit.limit);
      baseHeaders["X-RateLimit-Remaining"] = String(limit.remaining);
      if (!limit.allowed) {
        throw new ApiError(
          "rate_limited",
          `Too many requests for this ${who.type === "api_key" ? "API key" : "account"}; retry in ${limit.retryAfterSeconds} s.`,
          {
            headers: { "Retry-After": String(limit.retryAfterSeconds) },
          },
        );
      }

      if (options.role && who.type === "user" && !roleAllows(who.role, options.role)) {
        const needed = options.role === "owner" ? "an owner" : "an owner or admin";
        throw new ApiError("forbidden", `Only ${needed} of the organization may do this; you are a ${who.role}.`);
      }

      const url = new URL(req.url);
      let rawBody = "";
      let json: unknown = undefined;
      const uploaded = options.upload ? await readUpload(req, options.upload) : null;
      if (uploaded) {
        rawBody = uploaded.fingerprint;
        json = parseJson(uploaded.optionsText);
      } else if (options.body) {
        const type = req.headers.get("content-type");
        if (type === null && options.optionalBody && (await readBody(req)) === "") {
          json = {};
        } else {
          if (!JSON_MEDIA_TYPE.test(type ?? "") || OTHER_CHARSET.test(type ?? "")) {
            throw new ApiError("unsupported_media_type", "Send the request body as `Content-Type: application/json`.");
          }
          rawBody = await readBody(req);
          json = parseJson(rawBody);
        }
      }
      const rawParams = routeCtx ? await routeCtx.params : {};
      const { query: rawQuery, repeated } = queryOf(url.searchParams, (lists ??= listQueryParameters(options.query)));
      // Text that cannot be stored (NUL, lone surrogates) and absurd nesting are refused before any schema, verb or
      // carrier sees them (docs/api.md, "Requests"); every parameter counts, declared or not.
      const unsafe = [rawParams, rawQuery, json].flatMap((input) => rawInputProblems(input));
      if (unsafe.length > 0) throw new ValidationError(unsafe);
      if (repeated.length > 0) throw new ValidationError(repeated);
      // Path, query and body problems come back together, so one answer lists everything to fix.
      const problems: FieldProblem[] = [];
      const check = <S extends z.ZodType>(schema: S | undefined, input: unknown): z.output<S> => {
        if (!schema) return {} as z.output<S>;
        const parsed = parseInput(schema, input);
        if (parsed.ok) return parsed.data;
        problems.push(...parsed.problems);
        return undefined as z.output<S>;
      };
      const params = check(options.params, rawParams);
      const query = check((options.query ?? NO_QUERY) as Q, requestInCurrentVersion(version, options.query, rawQuery));
      const body = (options.body ? check(options.body, json) : undefined) as z.output<B>;
      if (problems.length > 0) throw new ValidationError(problems);

      const ctx: ApiContext = {
        org: { id: who.orgId },
        actor: who.type === "api_key" ? { type: "api_key", id: who.id, name: who.name } : { type: "user", id: who.id },
        origin: requestOrigin(req.headers),
        requestId,
        db,
        log: log().child({ request_id: requestId, org_id: who.orgId }),
        signal: req.signal,
      };
      const run = () => handler({ ctx, params, body, query, req, version, upload: uploaded?.upload ?? null });

      const idemKey = req.method === "POST" ? req.headers.get("idempotency-key") : null;
      if (idemKey === null) {
        response = toResponse(inVersion(await run(), version, operation), baseHeaders);
      } else {
        if (!IDEMPOTENCY_KEY_PATTERN.test(idemKey)) {
          throw new ApiError("validation_error", "must be 1 to 255 printable ASCII characters", {
            field: "Idempotency-Key",
          });
        }
        const fingerprint = requestFingerprint(req.method, url.pathname + url.search, rawBody);
        const start = await beginIdempotent(db, {
          orgId: who.orgId,
          key: idemKey,
          method: req.method,
          path: url.pathname,
          fingerprint,
        });
        if (start.kind === "replay") {
          // Stored as the current version built it: the replay is presented in the version asked for now.
          response = toResponse(inVersion({ status: start.status, body: start.body }, version, operation), {
            ...baseHeaders,
            "Idempotent-Replayed": "true",
          });
        } else {
          const slot = { orgId: who.orgId, key: idemKey, lock: start.lock };
          let result: ApiResult;
          try {
            result = await run();
          } catch (err) {
            const mapped = toErrorResponse(err, requestId, failureBody);
            result = { status: mapped.status, body: mapped.body, headers: mapped.headers };
          }
          await recordIdempotent(db, slot, result, ctx.log);
          response = toResponse(inVersion(result, version, operation), baseHeaders);
        }
      }
    } catch (err) {
      const mapped = toErrorResponse(err, requestId, failureBody);
      response = toResponse({ status: mapped.status, body: mapped.body, headers: mapped.headers }, baseHeaders);
    }
    log().info({
      msg: "request",
      request_id: requestId,
      org_id: orgId,
      method: req.method,
      route: options.route,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    });
    return response;
  }, operation);
}
