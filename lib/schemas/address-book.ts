import { z } from "zod";
import { ADDRESS_FIELDS, ADDRESS_MESSAGE_CODES } from "@/lib/addresses/types";
import { CARRIER_NAMES } from "@/lib/carriers/names";
import { blankIsNull, blankText, CarrierIds, optionalText, stateCode, Timestamp } from "./common";
import { boolQuery } from "./params";
import { PageQuery, pageOf } from "./pagination";

/**
 * docs/api.md, "Addresses": what /v1/addresses/validate and the address book take and answer. An address to check
 * may lack any line (the checks say what is missing, field by field, rather than refusing the request).
 */
const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")
  .transform((v) => v.toUpperCase());

const lines = {
  person_name: optionalText(200),
  company_name: optionalText(200),
  address_line1: blankText(200),
  address_line2: optionalText(200),
  city: blankText(100),
  postal_code: blankText(20),
  state_code: stateCode,
  country_code: countryCode,
  phone_number: optionalText(50),
};

export const AddressToCheck = z.object(lines).meta({ id: "AddressToCheck" });
export type AddressToCheck = z.output<typeof AddressToCheck>;

export const AddressValidateRequest = z
  .object({
    addresses: z.array(AddressToCheck).min(1).max(100),
    /** The carrier (and service) the label is for: its line lengths, PO Box rule and character set are checked. */
    carrier_name: z.enum(CARRIER_NAMES).nullish(),
    service: z.string().trim().min(1).max(100).nullish(),
    /** Connections that may verify (by carrier_id or car_ id); absent: any of the organization's that can. */
    carrier_ids: CarrierIds,
  })
  .meta({ id: "AddressValidateRequest" });
export type AddressValidateRequest = z.output<typeof AddressValidateRequest>;

const CheckedAddress = z
  .object({
    person_name: z.string().nullable(),
    company_name: z.string().nullable(),
    address_line1: z.string(),
    address_line2: z.string().nullable(),
    city: z.string(),
    postal_code: z.string(),
    state_code: z.string(),
    country_code: z.string(),
    phone_number: z.string().nullable(),
  })
  .meta({ id: "CheckedAddress" });

const ADDRESS_STATUSES = ["verified", "corrected", "ambiguous", "unverified", "invalid"] as const;

export const AddressValidationResult = z
  .object({
    status: z.enum(ADDRESS_STATUSES),
    /** The address as sent; never changed by the check. */
    address: CheckedAddress,
    suggestions: z.array(
      z.object({
        source: z.enum(["carrier", "transliteration", "phone_format"]),
        address: CheckedAddress,
        changed_fields: z.array(z.enum(ADDRESS_FIELDS)),
      }),
    ),
    residential: z.boolean().nullable(),
    /** Who verified the address (and classified it residential or not); null when no carrier did. */
    provider: z.object({ carrier_name: z.string(), carrier_id: z.string() }).nullable(),
    /** A repeat answered from the organization's cache, without a carrier call. */
    cached: z.boolean(),
    messages: z.array(
      z.object({
        field: z.enum(ADDRESS_FIELDS).nullable(),
        code: z.enum(ADDRESS_MESSAGE_CODES),
        level: z.enum(["error", "warning", "info"]),
        text: z.string(),
      }),
    ),
  })
  .meta({ id: "AddressValidationResult" });
export type AddressValidationResult = z.output<typeof AddressValidationResult>;

export const AddressValidationList = z
  .object({ results: z.array(AddressValidationResult) })
  .meta({ id: "AddressValidationList" });

// The address book

const savedFields = {
  label: optionalText(100),
  person_name: optionalText(200),
  company_name: optionalText(200),
  address_line1: z.string().trim().min(1, "must not be empty").max(200),
  address_line2: optionalText(200),
  city: blankText(100),
  postal_code: blankText(20),
  state_code: stateCode,
  country_code: countryCode,
  residential: z
    .boolean()
    .nullish()
    .transform((v) => v ?? null),
  email: blankIsNull(z.email("must be an email address").max(254)).transform((v) => v ?? null),
  phone_number: optionalText(50),
  federal_tax_id: optionalText(50),
  /** The organization's default ship-from; setting it on one address takes it off the one that had it. */
  is_default_sender: z.boolean().default(false),
};

export const SavedAddressCreate = z.object(savedFields).meta({ id: "SavedAddressCreate" });
export type SavedAddressCreate = z.output<typeof SavedAddressCreate>;

/** PATCH: only the fields given change (`is_default_sender` absent leaves it as it is). */
const { is_default_sender: _default, ...editable } = savedFields;
export const SavedAddressUpdate = z
  .object({
    ...(Object.fromEntries(Object.entries(editable).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof editable]: z.ZodOptional<(typeof editable)[K]>;
    }),
    is_default_sender: z.boolean().optional(),
  })
  .meta({ id: "SavedAddressUpdate" });
export type SavedAddressUpdate = z.output<typeof SavedAddressUpdate>;

export const SavedAddress = z
  .object({
    id: z.string(),
    object_type: z.literal("address"),
    label: z.string().nullable(),
    person_name: z.string().nullable(),
    company_name: z.string().nullable(),
    address_line1: z.string(),
    address_line2: z.string().nullable(),
    city: z.string(),
    postal_code: z.string(),
    state_code: z.string(),
    country_code: z.string(),
    residential: z.boolean().nullable(),
    email: z.string().nullable(),
    phone_number: z.string().nullable(),
    federal_tax_id: z.string().nullable(),
    is_default_sender: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "SavedAddress" });
export type SavedAddress = z.output<typeof SavedAddress>;

export const SavedAddressList = pageOf(SavedAddress, "SavedAddressList");

export const SavedAddressListQuery = PageQuery.extend({
  q: z.string().trim().min(1).max(100).optional().describe("Name, company, street, city or postal code contains"),
  is_default_sender: boolQuery.optional().describe("Only the default ship-from (true) or the others (false)"),
}).strict();
export type SavedAddressListQuery = z.output<typeof SavedAddressListQuery>;
