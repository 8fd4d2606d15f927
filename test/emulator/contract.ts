import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { load as parseYaml } from "js-yaml";

/**
 * A carrier's published contract (its OpenAPI files in test/emulator/specs/), as the emulator applies it: which
 * operation a request is, whether its path, query, headers and body are what the carrier's schema allows, and whether
 * an answer the emulator gives is what the carrier's schema says that operation answers. The emulator was written
 * from the same reading of the carriers as the adapters; these checks make the carriers' own files the judge of both.
 *
 * OpenAPI 3.0 schema objects are JSON Schema with a few additions; ajv reads them with `nullable` honoured and the
 * rest (`example`, `discriminator`, `xml`) ignored as annotations. `$ref`s resolve inside the file they come from.
 */

const SPECS_DIR = join(import.meta.dirname, "specs");

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Json;
  /** Where its schema is within the file (a JSON pointer), when it has one. */
  schemaAt?: string;
}

interface SpecOperation {
  /** `<file>#<operationId or method path>`: how violations name it. */
  id: string;
  file: string;
  method: string;
  template: string;
  pattern: RegExp;
  paramNames: string[];
  parameters: OpenApiParameter[];
  /** The JSON pointer (within the file) of each request body schema by media type. */
  bodies: Map<string, string>;
  bodyRequired: boolean;
  /** The JSON pointer of each answer's schema by status ("200", "4XX", "default"), or null when it has no body. */
  responses: Map<string, string | null>;
  /**
   * The same by status and JSON media type (`200 application/vnd.usps.labels+json`), for an operation whose answer's
   * shape depends on the media type asked for (USPS labels: multipart-shaped JSON or the vendor JSON).
   */
  typedResponses: Map<string, string>;
}

interface ContractRequest {
  method: string;
  /** The path below the carrier's prefix, without its query string. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  /** The body parsed (JSON) or the form as an object of strings; undefined when there is none. */
  body: unknown;
}

/**
 * A place where a carrier's file contradicts its own words, and what we read instead (specs/<carrier>/errata.json,
 * applied by the contract and by the type generator alike). Each is a fact about the carrier's publication, with its
 * reason written down, never a way to let our own request through.
 */
interface Erratum {
  file: string;
  /** JSON pointer of the value replaced, within the file. */
  at: string;
  value: unknown;
  why: string;
}

export interface Contract {
  /** The spec operation a request is, or null when the carrier publishes none for it. */
  operation(method: string, path: string): SpecOperation | null;
  /** What is wrong with a request by the carrier's contract: one line per problem, empty when nothing is. */
  checkRequest(op: SpecOperation, req: ContractRequest): ContractProblem[];
  /**
   * What is wrong with an answer by the carrier's contract for that operation; `mediaType` (the answer's content
   * type) picks that type's schema where the operation defines one, else its first JSON one.
   */
  checkResponse(op: SpecOperation, status: number, body: unknown, mediaType?: string): ContractProblem[];
}

const pointer = (...parts: string[]) => "#/" + parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/**
 * A spec file as JSON. UPS's YAML takes ~0.3 s to parse (Shipping.yaml is 600 kB) in every process that starts the
 * emulator, so the parsed form is kept in the temporary directory under the file's hash: JSON.parse takes ~10 ms.
 */
function loadSpec(file: string): Json {
  const text = readFileSync(join(SPECS_DIR, file), "utf8");
  if (file.endsWith(".json")) return JSON.parse(text) as Json;
  const cached = join(tmpdir(), "shipwell-carrier-specs", `${createHash("sha256").update(text).digest("hex")}.json`);
  try {
    return JSON.parse(readFileSync(cached, "utf8")) as Json;
  } catch {
    // js-yaml, not the stricter `yaml`: UPS's files indent a few continuation lines with tabs or too little.
    const spec = parseYaml(text) as Json;
    mkdirSync(join(tmpdir(), "shipwell-carrier-specs"), { recursive: true });
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(spec));
    renameSync(partial, cached);
    return spec;
  }
}

/** The base path the operation's server puts in front of the spec's path ("/api" for `https://onlinetools.ups.com/api`). */
function basePath(...serverLists: unknown[]): string {
  const servers = serverLists.find((s) => Array.isArray(s) && s.length > 0) as { url: string }[] | undefined;
  if (!servers) return "";
  return new URL(servers[0]!.url, "https://carrier.example").pathname.replace(/\/+$/, "");
}

/** A `$ref`ed parameter or body resolved within its file (parameters and request bodies may be components). */
function deref<T>(spec: Json, v: unknown): T {
  let node = v;
  for (let i = 0; i < 10 && isObject(node) && typeof node.$ref === "string"; i++) {
    node = walk(spec, pointerKeys(node.$ref));
  }
  return node as T;
}

function operationsOf(file: string, spec: Json): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [template, rawItem] of Object.entries((spec.paths as Json) ?? {})) {
    const item = rawItem as Json;
    for (const method of ["get", "post", "put", "delete", "patch"]) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const full = basePath(op.servers, item.servers, spec.servers) + template;
      const paramNames: string[] = [];
      const pattern = new RegExp(
        "^" +
          full.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{([^}]+)\\?\}/g, (_, name: string) => {
            paramNames.push(name);
            return "([^/]+)";
          }) +
          "$",
      );
      const located = (list: unknown, ...at: string[]) =>
        ((list as unknown[] | undefined) ?? []).map((raw, i): OpenApiParameter => {
          const p = deref<OpenApiParameter>(spec, raw);
          const own =
            isObject(raw) && typeof raw.$ref === "string" ? `${raw.$ref}/schema` : pointer(...at, String(i), "schema");
          return { ...p, schemaAt: p.schema ? own : undefined };
        });
      const parameters = [
        ...located(item.parameters, "paths", template, "parameters"),
        ...located(op.parameters, "paths", template, method, "parameters"),
      ];
      const requestBody = deref<Json | undefined>(spec, op.requestBody);
      const bodies = new Map<string, string>();
      for (const type of Object.keys((requestBody?.content as Json) ?? {})) {
        bodies.set(type, pointer("paths", template, method, "requestBody", "content", type, "schema"));
      }
      if (isObject(op.requestBody) && typeof op.requestBody.$ref === "string") {
        for (const type of bodies.keys())
          bodies.set(type, `${op.requestBody.$ref}/content/${type.replace(/\//g, "~1")}/schema`);
      }
      const responses = new Map<string, string | null>();
      const typedResponses = new Map<string, string>();
      for (const [status, raw] of Object.entries((op.responses as Json) ?? {})) {
        const response = deref<Json>(spec, raw);
        const content = (response?.content as Json) ?? {};
        const schemaAt = (type: string | undefined) =>
          isObject(raw) && typeof raw.$ref === "string"
            ? `${raw.$ref}/content/${(type ?? "").replace(/\//g, "~1")}/schema`
            : pointer("paths", template, method, "responses", status, "content", type ?? "", "schema");
        const hasSchema = (t: string) => isObject(content[t]) && (content[t] as Json).schema !== undefined;
        const type = Object.keys(content).find((t) => t.includes("json"));
        responses.set(status, type && hasSchema(type) ? schemaAt(type) : null);
        for (const t of Object.keys(content)) {
          if (t.includes("json") && hasSchema(t)) typedResponses.set(`${status} ${t}`, schemaAt(t));
        }
      }
      out.push({
        id: `${file}#${(op.operationId as string | undefined) ?? `${method.toUpperCase()} ${template}`}`,
        file,
        method: method.toUpperCase(),
        template: full,
        pattern,
        paramNames,
        parameters,
        bodies,
        bodyRequired: requestBody?.required === true,
        responses,
        typedResponses,
      });
    }
  }
  return out;
}

/** One thing the carrier's schema refuses: the field (dotted, as carriers name them) and what is wrong with it. */
export interface ContractProblem {
  field: string;
  message: string;
}

export const problemText = (p: ContractProblem) => (p.field ? `${p.field}: ${p.message}` : p.message);

/** `/a/0/b` → `a[0].b`, under `prefix`. */
function fieldOf(prefix: string, instancePath: string, child?: string): string {
  const parts = instancePath.split("/").slice(1);
  if (child !== undefined) parts.push(child);
  const dotted = parts
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");
  return [prefix, dotted].filter(Boolean).join(prefix && dotted.startsWith("[") ? "" : ".");
}

function describe(errors: ErrorObject[] | null | undefined, prefix: string): ContractProblem[] {
  const all = (errors ?? []).filter((e) => e.keyword !== "if");
  // A failed oneOf/anyOf comes with the failures of its branches, which say what is wrong; alone it is all there is.
  const specific = all.filter((e) => e.keyword !== "oneOf" && e.keyword !== "anyOf");
  return (specific.length ? specific : all).map((e): ContractProblem => {
    if (e.keyword === "required")
      return { field: fieldOf(prefix, e.instancePath, e.params.missingProperty as string), message: "is required" };
    if (e.keyword === "additionalProperties") {
      const extra = e.params.additionalProperty as string;
      return { field: fieldOf(prefix, e.instancePath, extra), message: "is not a field the carrier defines" };
    }
    const field = fieldOf(prefix, e.instancePath);
    if (e.keyword === "enum")
      return { field, message: `must be one of ${(e.params.allowedValues as unknown[]).join(", ")}` };
    return { field, message: e.message ?? e.keyword };
  });
}

/** OpenAPI 3.0's `nullable: true`: ajv honours it only beside a `type`, which is where the carriers' files put it. */
function newAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    coerceTypes,
    // The files are not JSON Schema documents: only the schemas inside them are compiled, on first use.
    validateSchema: false,
    logger: false,
    // JSON numbers are decimals, ajv's are binary floats: 0.043 / 0.001 is 42.99999999999999, and without a precision
    // one weight in eight of MyDHL's `multipleOf: 0.001` would be refused that DHL reads as the decimal it is.
    multipleOfPrecision: 9,
  });
  addFormats(ajv);
  return ajv;
}

const pointerKeys = (at: string) =>
  at
    .replace(/^#?\//, "")
    .split("/")
    .map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
const walk = (from: unknown, keys: string[]) =>
  keys.reduce<unknown>((at, k) => (isObject(at) || Array.isArray(at) ? (at as Json)[k] : undefined), from);

/** The value at a JSON pointer of a spec file as published (no errata). */
export function specValue(file: string, at: string): unknown {
  return walk(loadSpec(file), pointerKeys(at));
}

/** The errata of a carrier's files (`ups/errata.json` for `ups/Rating.yaml`). */
export function errataOf(file: string): Erratum[] {
  const all = JSON.parse(readFileSync(join(SPECS_DIR, dirname(file), "errata.json"), "utf8")) as Erratum[];
  return all.filter((e) => e.file === file);
}

/** A spec file as we read it: as published, with its errata applied. */
export function readSpec(file: string): Json {
  const spec = loadSpec(file);
  for (const e of errataOf(file)) applyErratum(spec, e);
  return spec;
}

function applyErratum(spec: Json, e: Erratum): void {
  const keys = pointerKeys(e.at);
  const last = keys.pop()!;
  const parent = walk(spec, keys);
  if (!isObject(parent) && !Array.isArray(parent)) throw new Error(`erratum ${e.file}${e.at}: no such place`);
  (parent as Json)[last] = e.value;
}

/**
 * OpenAPI 3.0's `exclusiveMinimum: true` (JSON Schema draft 4: "`minimum` is exclusive") in the draft 7 form ajv
 * reads (`exclusiveMinimum: <the bound>`); the same for maximum. USPS's files use the 3.0 form. A translation of
 * what the file says, not a change to it.
 */
function draft7Bounds(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(draft7Bounds);
  if (!isObject(node)) return;
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof node[flag] !== "boolean") continue;
    if (node[flag] && typeof node[bound] === "number") {
      node[flag] = node[bound];
      delete node[bound];
    } else delete node[flag];
  }
  Object.values(node).forEach(draft7Bounds);
}

export function loadContract(files: string[]): Contract {
  const bodies = newAjv(false);
  const params = newAjv(true);
  const operations: SpecOperation[] = [];
  for (const file of files) {
    const spec = readSpec(file);
    draft7Bounds(spec);
    bodies.addSchema(spec, file);
    params.addSchema(spec, file);
    operations.push(...operationsOf(file, spec));
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    let fn = compiled.get(ref);
    if (!fn) {
      fn = bodies.compile({ $ref: ref });
      compiled.set(ref, fn);
    }
    return fn;
  };
  // Parameters arrive as text: a wrapper object lets ajv coerce "3" to the integer a schema may ask for.
  const paramCompiled = new Map<string, ValidateFunction>();
  const paramValidator = (file: string, at: string) => {
    let fn = paramCompiled.get(file + at);
    if (!fn) {
      fn = params.compile({ type: "object", properties: { value: { $ref: `${file}${at}` } } });
      paramCompiled.set(file + at, fn);
    }
    return fn;
  };

  return {
    operation(method, path) {
      return operations.find((op) => op.method === method && op.pattern.test(path)) ?? null;
    },

    checkRequest(op, req) {
      const problems: ContractProblem[] = [];
      const values = op.pattern.exec(req.path)!.slice(1).map(decodeURIComponent);
      for (const p of op.parameters) {
        if (p.in === "cookie") continue;
        const raw =
          p.in === "path"
            ? values[op.paramNames.indexOf(p.name)]
            : p.in === "query"
              ? (req.query.get(p.name) ?? undefined)
              : req.headers[p.name.toLowerCase()];
        const value = Array.isArray(raw) ? raw[0] : raw;
        if (value === undefined) {
          if (p.required) problems.push({ field: `${p.in} ${p.name}`, message: "is required" });
          continue;
        }
        if (!p.schemaAt) continue;
        const validate = paramValidator(op.file, p.schemaAt);
        if (!validate({ value })) {
          problems.push(...describe(validate.errors, "").map((d) => ({ ...d, field: `${p.in} ${p.name}` })));
        }
      }
      if (op.bodies.size === 0) return problems;
      if (req.body === undefined) {
        if (op.bodyRequired) problems.push({ field: "", message: "the request body is required" });
        return problems;
      }
      const type = [...op.bodies.keys()].find((t) => req.contentType.includes(t.split(";")[0]!));
      if (!type) {
        problems.push({
          field: "header content-type",
          message: `${req.contentType || "(none)"} is not one of ${[...op.bodies.keys()].join(", ")}`,
        });
        return problems;
      }
      const validate = validator(`${op.file}${op.bodies.get(type)!}`);
      if (!validate(req.body)) problems.push(...describe(validate.errors, ""));
      return problems;
    },

    checkResponse(op, status, body, mediaType) {
      const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => op.responses.has(k));
      if (key === undefined) return [{ field: "", message: `status ${status} is not an answer the carrier defines` }];
      const type = mediaType?.split(";")[0]!.trim();
      const at = (type && op.typedResponses.get(`${key} ${type}`)) || op.responses.get(key);
      if (!at) return [];
      const validate = validator(`${op.file}${at}`);
      return validate(body) ? [] : describe(validate.errors, "");
    },
  };
}
