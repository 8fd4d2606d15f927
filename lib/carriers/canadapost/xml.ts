import { XMLBuilder, XMLParser } from "fast-xml-parser";
import { CarrierError } from "@/lib/carriers/types";

/**
 * Canada Post's XML (docs/canadapost.md), built and read with fast-xml-parser: never by string concatenation, so a name
 * with `&` or `<` is escaped by the library. Every call carries the operation's vendor media type in `Accept` (and
 * `Content-Type` for a body): Canada Post refuses `*\/*` and a wrong version.
 */

export const MEDIA = {
  rate: "application/vnd.cpc.ship.rate-v4+xml",
  shipment: "application/vnd.cpc.shipment-v8+xml",
  ncshipment: "application/vnd.cpc.ncshipment-v4+xml",
  track: "application/vnd.cpc.track-v2+xml",
} as const;

export const NAMESPACE = {
  rate: "http://www.canadapost.ca/ws/ship/rate-v4",
  shipment: "http://www.canadapost.ca/ws/shipment-v8",
  ncshipment: "http://www.canadapost.ca/ws/ncshipment-v4",
  track: "http://www.canadapost.ca/ws/track",
  messages: "http://www.canadapost.ca/ws/messages",
} as const;

/** Elements Canada Post repeats: always read as arrays, even when one came. */
const REPEATED = new Set([
  "price-quote",
  "option",
  "adjustment",
  "priced-option",
  "link",
  "occurrence",
  "message",
  "item",
]);

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false });
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  // Text stays text: an event identifier "0174" or a postal code must not become a number.
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => REPEATED.has(name),
});

/** A value of an element: text, a number, a boolean, a nested element or a list of them; undefined/null are left out. */
type XmlValue = string | number | boolean | XmlElement | XmlValue[] | undefined | null;
interface XmlElement {
  [name: string]: XmlValue;
}

function prune(v: XmlValue): XmlValue {
  if (Array.isArray(v)) return v.map(prune).filter((x) => x !== undefined && x !== null);
  if (v && typeof v === "object") {
    const out: XmlElement = {};
    for (const [k, child] of Object.entries(v)) {
      const pruned = prune(child);
      if (pruned !== undefined && pruned !== null) out[k] = pruned;
    }
    return out;
  }
  return v;
}

/**
 * A document: `root` in `namespace`, its children in the order given (Canada Post's types are `xsd:all`); `body` is
 * one of the typed documents of requests.ts.
 */
export function buildXml(root: string, namespace: string, body: object): string {
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    [root]: { "@_xmlns": namespace, ...(prune(body as XmlElement) as XmlElement) },
  }) as string;
}

/** An answer's text as a tree (namespace prefixes dropped); throws carrier_bad_response when it is not XML. */
export function parseXml(text: string, what = "Canada Post"): Record<string, unknown> {
  const trimmed = text.trim();
  if (!trimmed.startsWith("<")) {
    throw new CarrierError("carrier_bad_response", `${what} sent a response that could not be read.`);
  }
  try {
    return parser.parse(trimmed, true) as Record<string, unknown>;
  } catch {
    throw new CarrierError("carrier_bad_response", `${what} sent a response that could not be read.`);
  }
}

type Node = Record<string, unknown>;
export const node = (v: unknown): Node | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Node) : null);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** The text of an element (an element with attributes keeps its text in `#text`); null when absent or blank. */
export function text(v: unknown): string | null {
  if (typeof v === "string") return v.trim() || null;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const n = node(v);
  if (n && "#text" in n) return text(n["#text"]);
  return null;
}

/** A decimal element as a number; null when absent or not a number. */
export function amount(v: unknown): number | null {
  const t = text(v);
  if (t === null) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}
