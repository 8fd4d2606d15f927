/**
 * The documents the adapter sends, transcribed from Canada Post's XSDs (test/emulator/specs/canadapost/): only the
 * elements we fill, with the schemas' names, so a misspelt element does not compile. The XSDs stay the judge: every
 * document built in the tests is validated against them (test/emulator/xml-contract.ts). Canada Post publishes XSDs,
 * not OpenAPI, so `npm run carrier-types` has nothing to generate from; these types are kept by hand and each names
 * its schema type.
 */

/** rating.xsd / shipment.xsd `option` (`OptionType`). */
export type OptionElement = { "option-code": string; "option-amount"?: number };

/** `dimensions` (`DimensionMeasurementType`: cm, one decimal). */
export type Dimensions = { length: number; width: number; height: number };

/** rating.xsd `mailing-scenario`. */
export type MailingScenario = {
  "customer-number"?: string;
  "contract-id"?: string;
  "expected-mailing-date"?: string;
  options?: { option: OptionElement[] };
  "parcel-characteristics": { weight: number; dimensions?: Dimensions };
  services?: { "service-code": string[] };
  "origin-postal-code": string;
  destination:
    | { domestic: { "postal-code": string } }
    | { "united-states": { "zip-code": string } }
    | { international: { "country-code": string; "postal-code"?: string } };
};

/** shipment.xsd `AddressDetailsType` (contract senders), `DestinationAddressDetailsType`, ncshipment.xsd's
 * `DomesticAddressDetailsType` (non-contract senders: no country). */
export type AddressDetails = {
  "address-line-1"?: string;
  "address-line-2"?: string;
  city?: string;
  "prov-state"?: string;
  "country-code"?: string;
  "postal-zip-code"?: string;
};

/** shipment.xsd / ncshipment.xsd `SkuType`. */
type SkuItem = {
  "customs-number-of-units": number;
  "customs-description"?: string;
  sku?: string;
  "hs-tariff-code"?: string;
  "unit-weight": number;
  "customs-value-per-unit": number;
  "country-of-origin": string;
};

/** shipment.xsd / ncshipment.xsd `CustomsType` (`ioss-id` in the contract schema only). */
export type CustomsElement = {
  currency: string;
  "conversion-from-cad"?: number;
  "reason-for-export": string;
  "other-reason"?: string;
  "sku-list": { item: SkuItem[] };
  "invoice-number"?: string;
  "ioss-id"?: string;
};

/** shipment.xsd `DeliverySpecType` and ncshipment.xsd's (no print preferences, settlement optional). */
export type DeliverySpec = {
  "service-code": string;
  sender: { name?: string; company?: string; "contact-phone": string; "address-details": AddressDetails };
  destination: { name?: string; company?: string; "client-voice-number"?: string; "address-details": AddressDetails };
  options?: { option: OptionElement[] };
  "parcel-characteristics": { weight: number; dimensions?: Dimensions };
  "print-preferences"?: { "output-format": "4x6" | "8.5x11"; encoding: "PDF" | "ZPL" };
  preferences: { "show-packing-instructions": boolean; "show-postage-rate"?: boolean; "show-insured-value"?: boolean };
  references?: { "customer-ref-1"?: string; "customer-ref-2"?: string };
  customs?: CustomsElement;
  "settlement-info"?: { "contract-id"?: string; "intended-method-of-payment": string };
};

/** shipment.xsd `shipment` (`ShipmentType`): `group-id` and `transmit-shipment` are mutually exclusive. */
export type ContractShipment = ({ "group-id": string } | { "transmit-shipment": true }) & {
  "requested-shipping-point"?: string;
  "expected-mailing-date"?: string;
  "provide-pricing-info"?: true;
  "delivery-spec": DeliverySpec;
};

/** ncshipment.xsd `non-contract-shipment`. */
export type NonContractShipment = { "requested-shipping-point"?: string; "delivery-spec": DeliverySpec };

/** shipment.xsd `shipment-refund-request`, ncshipment.xsd `non-contract-shipment-refund-request`. */
export type RefundRequest = { email: string };
