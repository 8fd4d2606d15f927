import type { z } from "zod";
import type { CarrierHttp } from "@/lib/carriers/http/client";
import type { TokenCache } from "@/lib/carriers/http/token-cache";
import type { CarrierName } from "@/lib/carriers/names";

/**
 * The carrier layer's normalized vocabulary. Adapters translate between these shapes and their carrier's wire
 * format; nothing here knows about HTTP routes, the database or our public ids.
 */

export const WEIGHT_UNITS = ["KG", "LB", "OZ", "G"] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

export const DIMENSION_UNITS = ["CM", "IN"] as const;
export type DimensionUnit = (typeof DIMENSION_UNITS)[number];

export const LABEL_TYPES = ["PDF", "ZPL", "PNG"] as const;
export type LabelType = (typeof LABEL_TYPES)[number];

export const TRACKER_STATUSES = [
  "pending",
  "picked_up",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "on_hold",
  "delivery_delayed",
  "delivery_failed",
  "ready_for_pickup",
  "return_to_sender",
  // Lost, damaged beyond delivery, destroyed, seized or disposed of: the parcel will not arrive (final).
  "lost",
  "cancelled",
  "unknown",
] as const;
export type TrackerStatus = (typeof TRACKER_STATUSES)[number];

export const CAPABILITIES = [
  "rates",
  "ship",
  "void",
  "track",
  "multi_track",
  "lookup",
  "refund_status",
  "address_validation",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const MESSAGE_LEVELS = ["error", "warning", "info"] as const;
type MessageLevel = (typeof MESSAGE_LEVELS)[number];

/**
 * The service's own message codes (docs/api.md, "Errors"): what the carrier layer reports when a call fails on our
 * side of the wire, and what the service adds about a carrier operation. Adapters pass a carrier's own codes through
 * unchanged as a CarrierCode, so a typo in one of ours fails to compile instead of reaching a client.
 */
export type CarrierErrorCode =
  | "carrier_timeout"
  | "carrier_unavailable"
  | "carrier_rate_limited"
  | "carrier_auth_failed"
  | "carrier_bad_response"
  | "tracking_not_found"
  | "not_supported"
  // Raised by the service about a carrier operation, never by an adapter:
  | "carrier_not_found"
  | "purchase_outcome_unknown"
  | "purchase_recovered"
  | "cancel_outcome_unknown";

/** A code the carrier itself returned (UPS "250002", the sandbox's "SBX_…"), passed through as it wrote it. */
export type CarrierCode = string & { readonly __carrierCode: true };
export const carrierCode = (code: string): CarrierCode => code as CarrierCode;

export type MessageCode = CarrierErrorCode | CarrierCode;

/** The first message with one of our codes: the one way to look for them (a literal compared with `===` is not
 * type-checked against CarrierErrorCode). */
export function messageWithCode<M extends { code: MessageCode }>(messages: readonly M[], code: CarrierErrorCode) {
  return messages.find((m) => m.code === code);
}

export function hasCode(messages: readonly { code: MessageCode }[], code: CarrierErrorCode): boolean {
  return messageWithCode(messages, code) !== undefined;
}

export interface Address {
  person_name: string | null;
  company_name: string | null;
  address_line1: string;
  address_line2: string | null;
  city: string;
  postal_code: string;
  state_code: string;
  country_code: string;
  suburb: string | null;
  residential: boolean;
  email: string | null;
  phone_number: string | null;
  federal_tax_id: string | null;
  state_tax_id: string | null;
}

export interface Parcel {
  weight: number;
  weight_unit: WeightUnit;
  width: number | null;
  height: number | null;
  length: number | null;
  dimension_unit: DimensionUnit | null;
  packaging_type: string | null;
  package_preset: string | null;
  description: string | null;
  content: string | null;
  is_document: boolean;
}

/** A message as an adapter reports it; the carrier layer adds carrier_name and carrier_id. */
export interface AdapterMessage {
  code: MessageCode;
  message: string;
  level: MessageLevel;
  details?: Record<string, unknown>;
}

/** The public message item (docs/api.md, "Errors"). */
export interface CarrierMessage {
  carrier_name: string;
  carrier_id: string;
  code: MessageCode;
  message: string;
  level: MessageLevel;
  details: Record<string, unknown>;
}

export interface AdapterResult<T> {
  data: T;
  /** Warnings and notes that accompany a success; empty on a clean success. */
  messages: AdapterMessage[];
}

/** Thrown by adapters (and the HTTP client) when the carrier refused or failed the operation. */
export class CarrierError extends Error {
  readonly messages: AdapterMessage[];
  constructor(code: MessageCode, message: string, details: Record<string, unknown> = {}, more: AdapterMessage[] = []) {
    super(message);
    this.name = "CarrierError";
    this.messages = [{ code, message, level: "error", details }, ...more];
  }
  get code(): MessageCode {
    return this.messages[0]!.code;
  }
}

export interface ExtraCharge {
  name: string;
  amount: number;
  currency: string;
}

/** What the parcel holds, as customs declarations name it. */
export const CUSTOMS_CONTENT_TYPES = [
  "merchandise",
  "documents",
  "gift",
  "sample",
  "return_merchandise",
  "other",
] as const;
export type CustomsContentType = (typeof CUSTOMS_CONTENT_TYPES)[number];

/**
 * Every incoterm a client may name (DDU and DAT are the pre-2020 names some carriers still take). Each carrier takes
 * only part of it: an adapter refuses, before buying, a code outside its carrier's own list (UPS_TERMS_OF_SHIPMENT,
 * FEDEX_TERMS_OF_SALE).
 */
export const INCOTERMS = [
  "DAP",
  "DDP",
  "DDU",
  "DPU",
  "DAT",
  "EXW",
  "FCA",
  "CPT",
  "CIP",
  "FAS",
  "FOB",
  "CFR",
  "CIF",
] as const;
export type Incoterm = (typeof INCOTERMS)[number];

export const DUTY_PAYERS = ["sender", "recipient", "third_party"] as const;
export type DutyPayer = (typeof DUTY_PAYERS)[number];

/**
 * Kinds of tax or customs registration a party declares: a US Employer Identification Number, a VAT number, an EU
 * EORI, the EU's Import One-Stop Shop number, Brazil's CPF (people) and CNPJ (companies), Australia's ABN, a GST
 * number, or another kind. Each adapter maps them to its carrier's words (UPS `IDNumberTypeCode`, FedEx `tinType`).
 */
export const TAX_REGISTRATION_TYPES = ["ein", "vat", "eori", "ioss", "cpf", "cnpj", "abn", "gst", "other"] as const;
export type TaxRegistrationType = (typeof TAX_REGISTRATION_TYPES)[number];

export interface TaxRegistration {
  type: TaxRegistrationType;
  number: string;
  /** ISO country that issued it, when the number does not say (an EORI or VAT number starts with it). */
  issuing_country: string | null;
}

/** The parties a customs declaration can carry registrations for. */
export type TaxParty = "shipper" | "recipient";

export const NON_DELIVERY_OPTIONS = ["return", "abandon"] as const;
export type NonDelivery = (typeof NON_DELIVERY_OPTIONS)[number];

/** One line of the commercial invoice. */
interface Commodity {
  description: string;
  quantity: number;
  /** Value of one unit. */
  value_amount: number;
  value_currency: string;
  /** Weight of one unit. */
  weight: number;
  weight_unit: WeightUnit;
  /**
   * The whole line's net weight (the goods alone) and gross weight (with their packing), in `weight_unit`, for
   * carriers and customs that ask for both; optional so commodities built before them still type-check.
   */
  net_weight?: number | null;
  gross_weight?: number | null;
  /** Harmonized System tariff code (6 to 10 digits), when known. */
  hs_code: string | null;
  /** ISO country where the goods were made. */
  origin_country: string;
  sku: string | null;
}

/**
 * The customs declaration of a parcel that crosses a customs border (lib/schemas/customs.ts validates it and says
 * when one is required). Adapters map it to the carrier's international fields and commercial invoice.
 */
export type Customs = {
  content_type: CustomsContentType;
  /** What the parcel holds, in words; required for "other". */
  content_description: string | null;
  incoterm: Incoterm;
  /** Who pays duties and taxes; `account_number` with the carrier when a third party or the recipient pays. */
  duty: { paid_by: DutyPayer; currency: string | null; account_number: string | null; declared_value: number | null };
  invoice: string | null;
  /** `YYYY-MM-DD` */
  invoice_date: string | null;
  /** Send the commercial invoice electronically (UPS Paperless Invoice, FedEx Electronic Trade Documents). */
  commercial_invoice: boolean;
  /** The shipper certifies the declaration is true; `signer` names who did. */
  certify: boolean;
  signer: string | null;
  /** Export filing references: AES ITN, or an exemption (EEL/PFC, e.g. "NOEEI 30.37(a)"). */
  aes: string | null;
  eel_pfc: string | null;
  commodities: Commodity[];
  /**
   * The shipper's and recipient's tax registrations for customs. Optional so customs built before they existed
   * still type-check; `taxRegistrations` (lib/carriers/tax-registrations.ts) adds the addresses' `federal_tax_id`.
   */
  tax_registrations?: Record<TaxParty, TaxRegistration[]>;
  /**
   * What to do with the parcel if it cannot be delivered: send it back to the shipper or abandon it; null leaves it
   * to the carrier's default. Optional so customs built before it still type-check.
   */
  non_delivery?: NonDelivery | null;
  /** Carrier-specific extras, passed through. */
  options: Record<string, unknown>;
};

export interface RateQuote {
  service: string;
  service_name: string;
  currency: string;
  base_charge: number;
  discount: number;
  duties_and_taxes: number;
  total_charge: number;
  extra_charges: ExtraCharge[];
  transit_days: number;
  /** `YYYY-MM-DD` when the carrier gives one. */
  estimated_delivery: string | null;
}

/**
 * The day the parcel is to leave, on the origin's calendar (lib/carriers/ship-date.ts): `date` (`YYYY-MM-DD`) is the
 * client's `options.shipping_date`, or null for the first day it can leave; `time_zone` (IANA) is the origin's, from
 * the ship-from address. An adapter settles the day with `carrierShipDate` (today when null or past, then past its
 * carrier's daily cut-off and the weekend) before sending it.
 */
export interface ShipDate {
  date: string | null;
  time_zone: string;
}

export interface RateRequest {
  shipper: Address;
  recipient: Address;
  parcels: Parcel[];
  options: Record<string, unknown>;
  /** Restrict to these service codes when non-empty. */
  services: string[];
  ship_date: ShipDate;
}

export interface ShipRequest {
  shipper: Address;
  recipient: Address;
  parcels: Parcel[];
  service: string;
  label_type: LabelType;
  reference: string | null;
  /**
   * Our id of the shipment the label is for (a `shp_` id, minted for proxy purchases too). Sent where the carrier
   * keeps a second reference, so that a lookup tells this shipment's label from another's under the same client
   * reference; a carrier that declares "lookup" must keep it.
   */
  shipment_key: string;
  options: Record<string, unknown>;
  payment: { paid_by: string; currency: string | null; account_number: string | null } | null;
  /** Required (and validated) when the parcel crosses a customs border; null for a domestic parcel. */
  customs: Customs | null;
  ship_date: ShipDate;
}

interface LabelFile {
  type: LabelType;
  bytes: Uint8Array;
}

/**
 * The papers a carrier hands out beside the label, by what they are for customs or the driver: the commercial invoice
 * (UPS `Form` 01, FedEx COMMERCIAL_INVOICE, DHL `invoice`), a pro forma invoice (FedEx PROFORMA_INVOICE), a
 * certificate of origin (FedEx's and USMCA's), the postal customs declarations CN22 and CN23 (USPS, Canada Post), a
 * waybill copy (DHL `waybillDoc`), and anything else a carrier sends that must travel with the parcel.
 */
export const DOCUMENT_TYPES = [
  "commercial_invoice",
  "pro_forma_invoice",
  "certificate_of_origin",
  "cn22",
  "cn23",
  "waybill",
  "other",
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** A document as the carrier drew it: files of the same kinds as labels (carriers draw forms as PDF, some as PNG or ZPL). */
export interface ShipDocument {
  type: DocumentType;
  format: LabelType;
  bytes: Uint8Array;
  /** The carrier's own name for it ("All Requested International Forms"), when it gives one. */
  name: string | null;
}

export interface ShipResult {
  tracking_number: string;
  shipment_identifier: string;
  label: LabelFile;
  /** What to print besides the label (a commercial invoice to attach when it is not sent electronically); often none. */
  documents: ShipDocument[];
  /** The carrier's charge for the label when it reports one; null when it does not. */
  charge: RateQuote | null;
  meta: Record<string, unknown>;
}

export interface VoidRequest {
  tracking_number: string;
  shipment_identifier: string | null;
}

/**
 * What became of the price of a voided label. Most carriers void an unused label before it is billed (UPS, FedEx,
 * the sandbox: `refund` is null). Others void it by a refund request the carrier settles later: USPS once the label
 * is in a Shipping Services File (its `DISPUTED`), Canada Post once the shipment is transmitted (a service ticket).
 * Such a refund is `pending` until the carrier's answer to `checkRefund` settles it as `refunded` or `refused`.
 */
export const REFUND_STATUSES = ["pending", "refunded", "refused"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export interface Refund {
  status: RefundStatus;
  /** The carrier's id of the refund request (USPS `disputeId`, Canada Post `service-ticket-id`); null where none. */
  reference: string | null;
}

/**
 * A label the carrier reports as voided already (an earlier void whose answer was lost) is voided: the adapter
 * answers success, with an info message saying so, never a refusal, so a repeated cancellation settles.
 */
export interface VoidResult {
  voided: true;
  /** null: the label was voided before it was billed (nothing to refund); otherwise the refund it started. */
  refund: Refund | null;
}

/** `checkRefund`: where a pending refund of a voided label stands now. */
export interface RefundCheck {
  tracking_number: string;
  shipment_identifier: string | null;
  /** The refund as last known (pending). */
  refund: Refund;
  /** When the void that started it was answered. */
  requested_at: Date;
}

/** `findShipments`: the labels sold under `reference` at or after `sold_since`. */
export interface LookupRequest {
  reference: string;
  sold_since: Date;
}

/** A label as the carrier's own records hold it: what `ship` answered, with when it was sold. */
export interface FoundShipment extends ShipResult {
  reference: string | null;
  /** The `shipment_key` the label was sold with, as the carrier's records hold it; null where they do not. */
  shipment_key: string | null;
  sold_at: Date;
}

/**
 * The books of a carrier that runs inside this service (the sandbox): what it sold and voided for one connection
 * (its account). A carrier with servers of its own keeps these on them; an in-process carrier has no servers, so the
 * service lends it storage in its own database, which survives a crash of the process and is shared by every
 * instance, as a carrier's books would be. Null where the service lends none (rating, tracking).
 */
export interface CarrierLedger {
  /** Records a sale; false when the tracking number is already taken in this account (nothing written). */
  recordSale(sale: FoundShipment): Promise<boolean>;
  /** What the books say about one label; null when it was never sold here. */
  findSale(trackingNumber: string): Promise<{ sold_at: Date; voided_at: Date | null } | null>;
  /** Marks a sold label voided and answers when it was voided (the first void wins); null if never sold here. */
  recordVoid(trackingNumber: string, at: Date): Promise<Date | null>;
  /** Sales under `reference` at or after `since` that are not voided, oldest first. */
  liveSales(reference: string, since: Date): Promise<FoundShipment[]>;
}

export interface TrackingEvent {
  /** `YYYY-MM-DD` */
  date: string;
  /** `HH:MM` or null */
  time: string | null;
  description: string;
  location: string;
  code: string;
  status: TrackerStatus;
  /** ISO instant used for ordering and de-duplication; not part of the public event. */
  occurred_at: string;
}

export interface TrackingResult {
  tracking_number: string;
  status: TrackerStatus;
  /** Newest first. */
  events: TrackingEvent[];
  estimated_delivery: string | null;
  meta: Record<string, unknown>;
}

/**
 * A carrier's word on one address (`validateAddresses`): it knows the address as sent (verified), knows it with
 * changes (corrected: a ZIP+4 added, a street spelled its way), knows several that could be meant (ambiguous), or
 * knows none (not_found). `candidates` are written in our vocabulary with the names and phone of the address sent;
 * one for verified and corrected, several for ambiguous, none for not_found. "unsupported" is no verdict: the carrier
 * took the address but does not check its country (FedEx's CountrySupported false); it is never cached, and the
 * service answers unverified.
 */
export interface AddressVerification {
  status: "verified" | "corrected" | "ambiguous" | "not_found" | "unsupported";
  candidates: Address[];
  /** Residential (true), commercial (false), or unknown to the carrier (null). */
  residential: boolean | null;
}

/** What an adapter knows about the connection it runs for. Credentials are already decrypted and validated. */
export interface ConnectionInfo {
  id: string;
  carrier_name: string;
  carrier_id: string;
  test_mode: boolean;
  config: Record<string, unknown>;
  credentials: Record<string, unknown>;
}

export interface AdapterContext {
  connection: ConnectionInfo;
  http: CarrierHttp;
  tokens: TokenCache;
  /** Aborted when the per-call deadline passes or the client goes away. */
  signal: AbortSignal;
  now: () => Date;
  /** Lent for selling, voiding and looking up labels (CarrierLedger); only an in-process carrier uses it. */
  ledger: CarrierLedger | null;
  /**
   * Where the carrier's API is for this call, without a trailing slash: the adapter's `endpoints.test` or `.live` by
   * the connection's test_mode, or the carrier emulator when the operator runs one (CARRIER_EMULATOR_URL, loopback
   * only). Never from the connection itself: a client cannot aim the server at a URL of its choosing. "" for an
   * in-process carrier.
   */
  baseUrl: string;
}

/** A label size a carrier prints: a 4×6 in thermal label, or a letter sheet. */
/**
 * Label stock sizes in inches (width × height) and a letter sheet. Each adapter declares the ones its carrier prints
 * (`label_sizes`); the sandbox's own renderer draws 4×6 only.
 */
export type LabelSize = "4x6" | "4x6.75" | "4x8" | "letter";

/** A service the carrier sells, by its code, with the name people know it by. */
export interface ServiceDeclaration {
  code: string;
  name: string;
  /** Where it goes: within one country, across a border, or both. */
  scope: "domestic" | "international" | "both";
}

/**
 * How hard background tracking may lean on one connection of this carrier, from its published limits; a connection's
 * `config` overrides each number (`refresh_concurrency`, `refresh_requests_per_minute`, `refresh_batch_size`).
 */
export interface TrackingBudget {
  /** Tracking calls in flight at once. */
  concurrency: number;
  /** Tracking calls started per minute (a batch is one call). */
  requestsPerMinute: number;
  /** Numbers per call where the adapter has trackMany; 1 otherwise. */
  batchSize: number;
}

type VoidLabel = (ctx: AdapterContext, req: VoidRequest) => Promise<AdapterResult<VoidResult>>;
type CheckRefund = (ctx: AdapterContext, req: RefundCheck) => Promise<AdapterResult<Refund>>;
type FindShipments = (ctx: AdapterContext, req: LookupRequest) => Promise<AdapterResult<FoundShipment[]>>;
type ValidateAddresses = (ctx: AdapterContext, addresses: Address[]) => Promise<AdapterResult<AddressVerification[]>>;
type TrackMany = (
  ctx: AdapterContext,
  trackingNumbers: string[],
) => Promise<AdapterResult<Record<string, TrackingResult | CarrierError>>>;

interface AdapterBase {
  carrier_name: CarrierName;
  display_name: string;
  label_types: readonly LabelType[];
  label_sizes: readonly LabelSize[];
  /** The services it sells: code → name, in the order people expect to see them. */
  services: readonly ServiceDeclaration[];
  /** The carrier's API bases (its test environment and production); absent for an in-process carrier. */
  endpoints?: { test: string; live: string };
  /** Validates the write-only `credentials` of a connection. */
  credentialsSchema: z.ZodType<Record<string, unknown>>;
  /** Validates carrier-specific `config` keys of a connection (common keys such as deadline_ms are the layer's). */
  configSchema: z.ZodType<Record<string, unknown>>;
  trackingBudget: TrackingBudget;
  /** How many addresses one `validateAddresses` call may carry (the domain splits larger lists); absent: 1. */
  addressBatch?: number;
  /** The countries whose addresses `validateAddresses` verifies (UPS: the US and Puerto Rico); absent: every one. */
  addressCountries?: readonly string[];
  /**
   * What `validateAddresses` checks: the street, number and unit ("street", the default), or only that a postal code
   * and city belong together ("place": DHL Express). Where both kinds could verify an address, a street checker is
   * asked.
   */
  addressScope?: "street" | "place";
  /**
   * For a carrier without "void": what a clerk cancelling a bought label should know, as a sentence (DHL Express: it
   * bills only labels it scans, so an unused one costs nothing). Absent: the service says to ask the carrier for a
   * refund.
   */
  unvoidable_note?: string;
  rate(ctx: AdapterContext, req: RateRequest): Promise<AdapterResult<RateQuote[]>>;
  ship(ctx: AdapterContext, req: ShipRequest): Promise<AdapterResult<ShipResult>>;
  track(ctx: AdapterContext, trackingNumber: string): Promise<AdapterResult<TrackingResult>>;
  /**
   * How many times faster than real time this carrier's parcels move (the sandbox's `pace`, read from the
   * connection's config). Background tracking divides its refresh intervals by it, so simulated parcels are followed
   * at their own speed. Absent: 1.
   */
  simulatedPace?(config: Record<string, unknown>): number;
}

/** The optional operations, each with the capability that promises it. */
interface OptionalOperations {
  void: { op: VoidLabel; capability: "void" };
  trackMany: { op: TrackMany; capability: "multi_track" };
  findShipments: { op: FindShipments; capability: "lookup" };
  checkRefund: { op: CheckRefund; capability: "refund_status" };
  validateAddresses: { op: ValidateAddresses; capability: "address_validation" };
}
type Promised<C extends Capability> = {
  [K in keyof OptionalOperations]: OptionalOperations[K]["capability"] extends C ? K : never;
}[keyof OptionalOperations];

/** The optional operations a capability promises: present exactly when it is declared. */
type OperationsFor<C extends Capability> = { [K in Promised<C>]: OptionalOperations[K]["op"] } & {
  [K in Exclude<keyof OptionalOperations, Promised<C>>]?: never;
};

export type CarrierAdapter = AdapterBase & {
  capabilities: readonly Capability[];
  /** Voids a bought label; present exactly when `capabilities` has "void". */
  void?: VoidLabel;
  /**
   * Where a refund a void started stands now (VoidResult.refund pending); present exactly when it has
   * "refund_status". Answers `pending` while the carrier has not settled it; never throws for "not yet".
   */
  checkRefund?: CheckRefund;
  /** Many numbers in one call, results keyed by tracking number; present exactly when it has "multi_track". */
  trackMany?: TrackMany;
  /**
   * The live (not voided) labels the carrier sold under a reference since a time, oldest first: how a purchase whose
   * answer was lost is settled without buying twice. Present exactly when it has "lookup"; declare it only when an
   * empty answer is authoritative (the carrier's own records, not a cache that a crash or another server can miss).
   */
  findShipments?: FindShipments;
  /**
   * The carrier's verification of addresses, one answer per address in the order sent; present exactly when it has
   * "address_validation".
   */
  validateAddresses?: ValidateAddresses;
};

/**
 * Declares an adapter. The compiler holds `void`, `trackMany` and `findShipments` to the capabilities: a carrier that declares "void"
 * without implementing it, or implements it without declaring it, does not build. The adapter keeps its own precise
 * type (the sandbox's `void` is not optional), and fits CarrierAdapter wherever the registry hands it out.
 */
export function defineAdapter<const C extends Capability>(
  adapter: AdapterBase & { capabilities: readonly C[] } & OperationsFor<C>,
): AdapterBase & { capabilities: readonly C[] } & OperationsFor<C> {
  return adapter;
}
