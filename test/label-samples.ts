import type { Address } from "@/lib/carriers/types";
import type { LabelContent } from "@/lib/labels/content";

/** A realistic label for tests: every format's tests draw the same thing. */

export function sampleAddress(overrides: Partial<Address> = {}): Address {
  return {
    person_name: "Jane Doe",
    company_name: "Acme Widgets Inc.",
    address_line1: "1600 Amphitheatre Pkwy",
    address_line2: "Suite 200",
    city: "Mountain View",
    postal_code: "94043",
    state_code: "CA",
    country_code: "US",
    suburb: null,
    residential: false,
    email: null,
    phone_number: "+1 650 555 0100",
    federal_tax_id: null,
    state_tax_id: null,
    ...overrides,
  };
}

/** A business address in New York (the Empire State Building), for recipients and domestic routes. */
export function sampleNewYorkAddress(overrides: Partial<Address> = {}): Address {
  return sampleAddress({
    company_name: null,
    address_line1: "350 Fifth Avenue",
    address_line2: null,
    city: "New York",
    postal_code: "10118",
    state_code: "NY",
    phone_number: null,
    ...overrides,
  });
}

/**
 * A UK address of eight lines: name, company, two street lines, a locality, the town, the postcode on its own line
 * and the country; the postcode is the line a sorter reads.
 */
export function sampleFullUkAddress(): Address {
  return sampleAddress({
    person_name: "Jane Doe",
    company_name: "Acme Ltd",
    address_line1: "10 Downing Street",
    address_line2: "Flat 2",
    suburb: "Westminster",
    city: "London",
    postal_code: "SW1A 2AA",
    state_code: "",
    country_code: "GB",
  });
}

export function sampleLabelContent(overrides: Partial<LabelContent> = {}): LabelContent {
  return {
    carrierName: "Sandbox",
    serviceName: "Sandbox Ground",
    trackingNumber: "SBX126230400000900001705",
    shipper: sampleAddress(),
    recipient: sampleNewYorkAddress({ person_name: "John Smith", phone_number: "+1 650 555 0100", residential: true }),
    weightText: "2.5 KG",
    reference: "ORDER-1042",
    shipDate: "2024-01-01",
    barcodeValue: "SBX126230400000900001705",
    routingText: "ZONE 9  NEW YORK NY",
    footerText: "SANDBOX TEST LABEL - NOT VALID FOR SHIPPING",
    ...overrides,
  };
}
