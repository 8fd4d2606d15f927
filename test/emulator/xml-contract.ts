import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateXML } from "xmllint-wasm";
import { XMLParser } from "fast-xml-parser";
import type { ContractProblem } from "./contract";

/**
 * A carrier's published contract when it is XML Schema (Canada Post's XSDs in test/emulator/specs/canadapost/), as
 * the emulator applies it: which operation a request is, whether its body is the element the operation takes (root
 * name and namespace) and valid by the carrier's schema, whether its `Accept` and `Content-Type` are the operation's
 * vendor media types, and whether an answer is the element (or the binary file) the operation answers for its status.
 * libxml2 (xmllint-wasm, no system package) does the schema validation; the operations are listed by the carrier's
 * module, since an XSD says what a document is, not which URL takes it.
 */

const SPECS_DIR = join(import.meta.dirname, "specs");

/** A document an operation takes or answers: the XSD that declares it and its root element. */
export interface XmlDocument {
  /** Under test/emulator/specs/ (`canadapost/rating.xsd`); its includes are loaded from the same folder. */
  schema: string;
  namespace: string;
  element: string;
}

export interface XmlOperation {
  /** `<schema>#<element>` or the operation's name: how violations name it. */
  id: string;
  method: string;
  pattern: RegExp;
  /** The vendor media type the operation requires in `Accept` (and in `Content-Type` when it has a body). */
  mediaType: string;
  /** The body it takes; absent for a GET or DELETE. */
  request?: XmlDocument;
  /**
   * What it answers, by status ("200", "4XX", "default"): a document, "binary" (a file such as a label, checked to be
   * non-empty), or null for an empty body.
   */
  responses: Map<string, XmlDocument | "binary" | null>;
}

/** The request as the emulator hands it to the checks: `raw` is the body as sent. */
interface XmlContractRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  raw: string;
}

const parser = new XMLParser({ ignoreAttributes: true, removeNSPrefix: false });

/** The root element's local name and namespace, or null when the text is not XML. */
function rootOf(text: string): { element: string; namespace: string | null } | null {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (!trimmed.startsWith("<")) return null;
  try {
    parser.parse(trimmed, true);
  } catch {
    return null;
  }
  const open = /<(?!\?|!)([A-Za-z_][\w.-]*(?::[\w.-]+)?)([^>]*)>/.exec(trimmed);
  if (!open) return null;
  const [prefix, local] = open[1]!.includes(":") ? open[1]!.split(":") : [null, open[1]!];
  const attr = prefix ? `xmlns:${prefix}` : "xmlns";
  const ns = new RegExp(`${attr.replace(":", "\\:")}\\s*=\\s*"([^"]*)"`).exec(open[2]!)?.[1] ?? null;
  return { element: local!, namespace: ns };
}

const headerText = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? "") : (v ?? ""));

/** The schema file and every file it includes or redefines (one level deep is all Canada Post's files use). */
function schemaFiles(schema: string): { fileName: string; contents: string }[] {
  const folder = schema.split("/").slice(0, -1).join("/");
  const main = readFileSync(join(SPECS_DIR, schema), "utf8");
  const included = [...main.matchAll(/schemaLocation="([^"]+)"/g)].map((m) => m[1]!);
  return [
    { fileName: schema.split("/").pop()!, contents: main },
    ...[...new Set(included)].map((f) => ({ fileName: f, contents: readFileSync(join(SPECS_DIR, folder, f), "utf8") })),
  ];
}

const schemaCache = new Map<string, { fileName: string; contents: string }[]>();

/** What is wrong with `text` as the document `doc`: not XML, another root element, or what the schema refuses. */
async function checkXmlDocument(doc: XmlDocument, text: string): Promise<ContractProblem[]> {
  const root = rootOf(text);
  if (!root) return [{ field: "", message: "the body is not XML" }];
  if (root.element !== doc.element || root.namespace !== doc.namespace) {
    return [
      {
        field: root.element,
        message: `is not the element the operation takes: {${doc.namespace}}${doc.element} (${doc.schema})`,
      },
    ];
  }
  let files = schemaCache.get(doc.schema);
  if (!files) {
    files = schemaFiles(doc.schema);
    schemaCache.set(doc.schema, files);
  }
  const [main, ...preload] = files;
  const result = await validateXML({
    xml: [{ fileName: "body.xml", contents: text }],
    schema: [main!],
    preload,
  });
  if (result.valid) return [];
  return result.errors.map((e) => {
    // "Schemas validity error : Element '{ns}weight': [facet 'maxInclusive'] The value '120' is greater than …"
    const element = /Element '(?:\{[^}]*\})?([^']+)'/.exec(e.message)?.[1] ?? "";
    return { field: element, message: e.message.replace(/^.*?validity error : /, "") };
  });
}

/** The media type without parameters, lower case. */
const mediaOf = (v: string) => v.split(";")[0]!.trim().toLowerCase();

export interface XmlContract {
  operation(method: string, path: string): XmlOperation | null;
  checkRequest(op: XmlOperation, req: XmlContractRequest): Promise<ContractProblem[]>;
  checkResponse(op: XmlOperation, status: number, body: unknown): Promise<ContractProblem[]>;
}

export function xmlContract(operations: XmlOperation[]): XmlContract {
  return {
    operation(method, path) {
      return operations.find((op) => op.method === method && op.pattern.test(path)) ?? null;
    },

    async checkRequest(op, req) {
      const problems: ContractProblem[] = [];
      const accept = headerText(req.headers.accept);
      const acceptResponse = [...op.responses.values()].some((r) => r === "binary");
      // A label is fetched with the media type its link names (application/pdf, application/zpl): not the vendor's.
      if (!acceptResponse && !accept.split(",").some((a) => mediaOf(a) === op.mediaType)) {
        problems.push({ field: "header accept", message: `${accept || "(none)"} is not ${op.mediaType}` });
      }
      if (!op.request) {
        if (req.raw.trim()) problems.push({ field: "", message: "the operation takes no body" });
        return problems;
      }
      if (mediaOf(req.contentType) !== op.mediaType) {
        problems.push({
          field: "header content-type",
          message: `${req.contentType || "(none)"} is not ${op.mediaType}`,
        });
      }
      problems.push(...(await checkXmlDocument(op.request, req.raw)));
      return problems;
    },

    async checkResponse(op, status, body) {
      const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => op.responses.has(k));
      if (key === undefined) return [{ field: "", message: `status ${status} is not an answer the carrier defines` }];
      const expected = op.responses.get(key)!;
      if (expected === null) {
        const empty = body === "" || body === undefined || body === null;
        return empty ? [] : [{ field: "", message: "the answer must have no body" }];
      }
      if (expected === "binary") {
        const ok = body instanceof Uint8Array && body.byteLength > 0;
        return ok ? [] : [{ field: "", message: "the answer must be a non-empty file" }];
      }
      if (typeof body !== "string") return [{ field: "", message: "the answer is not XML text" }];
      return checkXmlDocument(expected, body);
    },
  };
}
