import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadContract, problemText, type Contract, type ContractProblem } from "./contract";

/**
 * The carrier emulator: one loopback HTTP server that speaks each networked carrier's wire format (the carrier
 * modules beside this file), so adapters, end-to-end tests and benches run against something that answers like
 * UPS or FedEx without the internet. The service reaches it through CARRIER_EMULATOR_URL (`<url>/<carrier>/…`).
 *
 * Switches make a carrier misbehave the way real ones do: slow answers, tokens that expire early (401), 429 with
 * Retry-After, 5xx, a body that is not JSON, a request that never gets an answer. Set them from the same process
 * (`emulator.set("ups", {...})`) or over HTTP from another one (`POST /__emulator/ups/switches`), as the browser
 * tests and benches do.
 *
 * Every request is checked against the carrier's published contract (test/emulator/contract.ts, the carrier's
 * OpenAPI files in specs/): one the carrier's schema refuses is answered with the carrier's own 400 and recorded as a
 * violation, and so is an answer of the emulator's that the schema does not allow. Tests fail on any violation they
 * did not ask for (`assertContractKept`, called after each test by the tests' helpers).
 */

/** "payment": USPS's payment authorization; "label": a label fetched from a link the carrier gave (Canada Post's artifacts). */
export type Operation = "token" | "payment" | "rate" | "ship" | "void" | "track" | "label" | "address_validation";

type Fault =
  | { kind: "status"; status: number }
  | { kind: "rate_limited"; retry_after_s: number }
  | { kind: "malformed" }
  | { kind: "hang" };

interface Switches {
  /** Every answer of this carrier waits this long. */
  latency_ms?: number;
  /** Lifetime the token endpoint announces (`expires_in`) and enforces; default the carrier's own. */
  token_ttl_s?: number;
  fault?: Fault | null;
  /** The operations the fault hits; default every operation but the token endpoint. */
  fault_operations?: Operation[];
  /** How many calls the fault hits before it switches itself off; default until changed. */
  fault_times?: number | null;
}

export interface EmulatorRequest {
  method: string;
  /** Path below the carrier's prefix, with its query string removed: `/api/rating/v2409/Shop`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** The body as sent (what an XML carrier reads). */
  body: string;
  /** The body parsed as JSON or as a form, when it is one; null otherwise. */
  json: unknown;
  form: URLSearchParams | null;
}

export interface EmulatorResponse {
  status: number;
  /** JSON-able, or text (XML) or bytes (a label file) sent as they are. */
  body: unknown;
  headers?: Record<string, string>;
}

export interface CarrierState {
  /** Any per-carrier memory a module keeps between calls (labels sold, voided). */
  readonly data: Map<string, unknown>;
  readonly now: () => Date;
  /** A new bearer token with the carrier's lifetime (or token_ttl_s). */
  issueToken(): { token: string; expiresInSeconds: number };
}

/**
 * A contract as the server applies it: OpenAPI (contract.ts) or XML Schema (xml-contract.ts, whose checks are
 * asynchronous). The request carries its raw body for the XML one.
 */
interface AppliedContract {
  operation(method: string, path: string): { id: string } | null;
  checkRequest(
    op: { id: string },
    req: Parameters<Contract["checkRequest"]>[1] & { raw: string },
  ): ContractProblem[] | Promise<ContractProblem[]>;
  checkResponse(
    op: { id: string },
    status: number,
    body: unknown,
    mediaType?: string,
  ): ContractProblem[] | Promise<ContractProblem[]>;
}

/** Where a carrier's contract lives and how the carrier refuses a request that breaks it. */
export interface CarrierContract {
  /** Files under test/emulator/specs/. */
  files: string[];
  /**
   * The path the carrier's servers put before the spec's paths that the adapter's base URL already holds (MyDHL's
   * `/mydhlapi`: its test and production servers are `…/mydhlapi/test` and `…/mydhlapi`, both in the adapter's
   * endpoints); the emulator stands for the whole base URL, so the contract reads the request's path below it.
   */
  basePath?: string;
  /** How the files are applied when they are not OpenAPI (Canada Post's XSDs); default loadContract. */
  load?(): AppliedContract;
  /** The carrier's own answer to a request its schema refuses; the problems name each field. */
  refuse(problems: ContractProblem[]): EmulatorResponse;
}

export interface ContractViolation {
  carrier: string;
  operation: Operation;
  /** A request the adapter sent, or an answer the emulator gave. */
  kind: "request" | "answer";
  /** The carrier's operation (`<file>#<operationId>`). */
  spec: string;
  /** The answer's status, for an answer. */
  status?: number;
  problems: ContractProblem[];
}

export interface EmulatedCarrier {
  name: string;
  /** The carrier's published contract; a carrier without one is not checked. */
  contract?: CarrierContract;
  /** Default `expires_in` of its tokens, in seconds. */
  tokenTtlSeconds: number;
  /**
   * For a carrier that authenticates every call itself (MyDHL's HTTP Basic): whether the call's credentials are good.
   * Absent: a bearer token the carrier's token endpoint issued and that has not expired.
   */
  authorize?(headers: IncomingMessage["headers"]): boolean;
  /** Which operation a request is, or null for a path the carrier does not have (404). */
  operationOf(method: string, path: string): Operation | null;
  handle(req: EmulatorRequest, state: CarrierState): EmulatorResponse | Promise<EmulatorResponse>;
  /** The carrier's own error body for a status it answers on its own (401 expired token, 429, 5xx). */
  errorBody(status: number, code: string, message: string): unknown;
  /** The media type of its answers when a module sets none (default JSON). */
  contentType?: string;
  /**
   * For a carrier that authenticates every call itself (Canada Post's HTTP Basic): whether the call's credentials are
   * good. Absent: a bearer token the carrier's token endpoint issued and that has not expired.
   */
  authorize?(headers: IncomingMessage["headers"]): boolean;
}

interface RecordedCall {
  carrier: string;
  operation: Operation;
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  status: number;
  /** Time spent checking the request and the answer against the carrier's contract (bench:contract reads it). */
  contractMs: number;
}

export interface Emulator {
  url: string;
  /** Every call answered (or hung) since the last reset, oldest first. */
  calls: RecordedCall[];
  set(carrier: string, switches: Switches): void;
  /** Makes every token issued so far expire now, as if its lifetime ran out (the next call answers 401). */
  expireTokens(carrier?: string): void;
  /** Requests and answers that broke the carrier's contract, oldest first, until taken. */
  readonly violations: ContractViolation[];
  /** The violations so far, forgotten here: for a test that sends a broken request on purpose. */
  takeViolations(): ContractViolation[];
  /** Throws, listing them, when anything broke the carrier's contract since the last call; forgets them. */
  assertContractKept(): void;
  /** Switches off, tokens, calls and carrier memory forgotten (violations are kept for assertContractKept). */
  reset(): void;
  close(): Promise<void>;
}

interface Lane {
  carrier: EmulatedCarrier;
  switches: Switches;
  faultHits: number;
  tokens: Map<string, number>;
  data: Map<string, unknown>;
}

const MAX_BODY_BYTES = 1_000_000;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new Error("body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, r: EmulatorResponse, contentType = "application/json"): void {
  const text = typeof r.body === "string" || r.body instanceof Uint8Array ? r.body : JSON.stringify(r.body);
  res.writeHead(r.status, { "content-type": contentType, ...r.headers });
  res.end(text);
}

/** A violation as one readable block: who, what, and each problem on its own line. */
export function describeViolation(v: ContractViolation): string {
  const what = v.kind === "answer" ? `answer ${v.status ?? ""}`.trim() : "request";
  return `${v.carrier} ${v.operation} ${what} (${v.spec}):\n    ${v.problems.map(problemText).join("\n    ")}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Parsed specs and compiled validators cost ~0.1–0.4 s per operation: once per process and carrier, on first use.
const contracts = new Map<string, AppliedContract>();
function contractOf(carrier: EmulatedCarrier): AppliedContract | null {
  if (!carrier.contract) return null;
  let contract = contracts.get(carrier.name);
  if (!contract) {
    contract = carrier.contract.load?.() ?? loadContract(carrier.contract.files);
    contracts.set(carrier.name, contract);
  }
  return contract;
}

function headerText(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
}

export async function startEmulator(
  carriers: EmulatedCarrier[],
  opts: {
    port?: number;
    host?: string;
    now?: () => Date;
    /** Called for each violation as it happens (`npm run emulator` prints them). */
    onViolation?: (v: ContractViolation) => void;
    /**
     * false: answer without checking requests and answers against the carriers' contracts. For the API bench only,
     * which measures the service: Canada Post's XSD checks (libxml2 in WebAssembly) cost more per call than the
     * carrier's own latency it stands for. Tests always check.
     */
    checkContracts?: boolean;
  } = {},
): Promise<Emulator> {
  const now = opts.now ?? (() => new Date());
  const lanes = new Map<string, Lane>(
    carriers.map((c) => [c.name, { carrier: c, switches: {}, faultHits: 0, tokens: new Map(), data: new Map() }]),
  );
  const calls: RecordedCall[] = [];
  const violations: ContractViolation[] = [];
  const violate = (v: ContractViolation) => {
    violations.push(v);
    opts.onViolation?.(v);
  };
  const takeViolations = () => violations.splice(0, violations.length);
  const hanging = new Set<ServerResponse>();

  const set = (name: string, switches: Switches): void => {
    const lane = lanes.get(name);
    if (!lane) throw new Error(`the emulator has no carrier ${name}`);
    lane.switches = { ...lane.switches, ...switches };
    lane.faultHits = 0;
  };
  const expireTokens = (name?: string): void => {
    for (const lane of lanes.values()) if (!name || lane.carrier.name === name) lane.tokens.clear();
  };
  const reset = (): void => {
    calls.length = 0;
    for (const lane of lanes.values()) {
      lane.switches = {};
      lane.faultHits = 0;
      lane.tokens.clear();
      lane.data.clear();
    }
  };

  async function control(req: IncomingMessage, res: ServerResponse, parts: string[]): Promise<void> {
    if (req.method === "POST" && parts[0] === "reset") {
      reset();
      return send(res, { status: 204, body: "" });
    }
    if (req.method === "GET" && parts[0] === "calls") return send(res, { status: 200, body: calls });
    if (req.method === "GET" && parts[0] === "violations") return send(res, { status: 200, body: violations });
    if (req.method === "POST" && parts[1] === "switches" && lanes.has(parts[0]!)) {
      set(parts[0]!, JSON.parse((await readBody(req)) || "{}") as Switches);
      return send(res, { status: 204, body: "" });
    }
    if (req.method === "POST" && parts[1] === "expire-tokens" && lanes.has(parts[0]!)) {
      expireTokens(parts[0]);
      return send(res, { status: 204, body: "" });
    }
    send(res, { status: 404, body: { error: "unknown control" } });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://emulator");
    const [, first = "", ...rest] = url.pathname.split("/");
    if (first === "__emulator") return control(req, res, rest);
    const lane = lanes.get(first);
    const path = "/" + rest.join("/");
    const operation = lane?.carrier.operationOf(req.method ?? "GET", path) ?? null;
    if (!lane || !operation)
      return send(res, { status: 404, body: { error: `no route ${req.method} ${url.pathname}` } });

    const body = await readBody(req);
    let contractMs = 0;
    const timed = async <T>(check: () => T | Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await check();
      } finally {
        contractMs += performance.now() - started;
      }
    };
    const record = (status: number) =>
      calls.push({
        carrier: lane.carrier.name,
        operation,
        method: req.method!,
        path,
        headers: req.headers,
        body,
        status,
        contractMs,
      });
    const { switches, carrier } = lane;
    const contract = opts.checkContracts === false ? null : contractOf(carrier);
    const specPath = (carrier.contract?.basePath ?? "") + path;
    const specOperation = contract?.operation(req.method!, specPath) ?? null;
    // What the carrier itself answers (not an injected fault) is held to the operation's published answers.
    const reply = (r: EmulatorResponse) => send(res, r, carrier.contentType);
    const answer = async (r: EmulatorResponse) => {
      if (contract && specOperation) {
        const problems = await timed(() =>
          contract.checkResponse(specOperation, r.status, r.body, r.headers?.["content-type"]),
        );
        if (problems.length) {
          violate({
            carrier: carrier.name,
            operation,
            kind: "answer",
            spec: specOperation.id,
            status: r.status,
            problems,
          });
        }
      }
      record(r.status);
      reply(r);
    };
    if (switches.latency_ms) await sleep(switches.latency_ms);

    const fault = switches.fault;
    const hits =
      fault &&
      (switches.fault_operations ?? ["rate", "ship", "void", "track", "address_validation"]).includes(operation);
    if (fault && hits && (switches.fault_times == null || lane.faultHits < switches.fault_times)) {
      lane.faultHits++;
      switch (fault.kind) {
        case "hang":
          record(0);
          hanging.add(res);
          res.on("close", () => hanging.delete(res));
          return;
        case "malformed":
          record(200);
          return reply({ status: 200, body: '{"response": {"unexpected' });
        case "rate_limited":
          record(429);
          return reply({
            status: 429,
            headers: { "retry-after": String(fault.retry_after_s) },
            body: carrier.errorBody(429, "429", "Rate Limit Exceeded"),
          });
        case "status":
          record(fault.status);
          return reply({
            status: fault.status,
            body: carrier.errorBody(fault.status, String(fault.status), "Server error"),
          });
      }
    }

    if (carrier.authorize) {
      // The specs of such carriers list no 401 for their operations (MyDHL names Basic auth in securitySchemes
      // only): the refusal is the carrier's, in its error shape, and outside what its contract checks.
      if (!carrier.authorize(req.headers)) {
        record(401);
        return reply({ status: 401, body: carrier.errorBody(401, "401", "Unauthorized") });
      }
    } else if (operation !== "token") {
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
      const expiresAt = bearer ? lane.tokens.get(bearer) : undefined;
      if (expiresAt === undefined || expiresAt <= now().getTime()) {
        return answer({ status: 401, body: carrier.errorBody(401, "401", "Invalid or expired access token") });
      }
    }

    let json: unknown = null;
    let form: URLSearchParams | null = null;
    const type = req.headers["content-type"] ?? "";
    if (type.includes("json") && body) {
      try {
        json = JSON.parse(body);
      } catch {
        record(400);
        return reply({ status: 400, body: carrier.errorBody(400, "400", "The request body is not valid JSON") });
      }
    } else if (type.includes("x-www-form-urlencoded")) form = new URLSearchParams(body);

    if (contract && carrier.contract && specOperation) {
      const problems = await timed(() =>
        contract.checkRequest(specOperation, {
          method: req.method!,
          path: specPath,
          query: url.searchParams,
          headers: req.headers,
          contentType: headerText(req.headers["content-type"]),
          body: form ? Object.fromEntries(form) : body ? json : undefined,
          raw: body,
        }),
      );
      if (problems.length) {
        violate({ carrier: carrier.name, operation, kind: "request", spec: specOperation.id, problems });
        return answer(carrier.contract.refuse(problems));
      }
    }

    const state: CarrierState = {
      data: lane.data,
      now,
      issueToken() {
        const token = randomBytes(24).toString("base64url");
        const ttl = switches.token_ttl_s ?? carrier.tokenTtlSeconds;
        lane.tokens.set(token, now().getTime() + ttl * 1000);
        return { token, expiresInSeconds: ttl };
      },
    };
    await answer(
      await carrier.handle(
        { method: req.method!, path, query: url.searchParams, headers: req.headers, body, json, form },
        state,
      ),
    );
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, { status: 500, body: { error: String(err) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    violations,
    takeViolations,
    assertContractKept() {
      const broken = takeViolations();
      if (broken.length === 0) return;
      const lines = broken.map(describeViolation);
      throw new Error(`the carrier's published contract was broken:\n  ${lines.join("\n  ")}`);
    },
    set,
    expireTokens,
    reset,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
