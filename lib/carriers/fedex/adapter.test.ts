import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import type { CarrierRequest } from "@/lib/carriers/http/client";
import { TokenCache } from "@/lib/carriers/http/token-cache";
import { CarrierError, INCOTERMS, type TrackingResult } from "@/lib/carriers/types";
import { fedexAdapter } from "@/lib/carriers/fedex/adapter";
import { FEDEX_TERMS_OF_SALE } from "@/lib/carriers/fedex/customs";
import { CustomsInput } from "@/lib/schemas/customs";
import { shipmentKeyReference } from "@/lib/carriers/fedex/ship";
import {
  FEDEX_CREDENTIALS,
  fedexContext,
  fedexCustoms,
  fedexDomesticRate,
  fedexDomesticShip,
  fedexInternationalRate,
  fedexInternationalShip,
  recordedFedex,
  type Recorded,
} from "@/test/fedex-context";
import rateRequestDomestic from "./fixtures/rate-request-domestic.json";
import rateRequestInternational from "./fixtures/rate-request-international.json";
import shipRequestDomestic from "./fixtures/ship-request-domestic.json";
import shipRequestInternational from "./fixtures/ship-request-international.json";
import trackRequest from "./fixtures/track-request.json";
import rateSuccess from "./fixtures/rate-success.json";
import rateAlertsOnly from "./fixtures/rate-alerts-only.json";
import rateError from "./fixtures/rate-error.json";
import shipSuccess from "./fixtures/ship-success.json";
import shipError from "./fixtures/ship-error.json";
import cancelSuccess from "./fixtures/cancel-success.json";
import cancelAlreadyCancelled from "./fixtures/cancel-already-cancelled.json";
import trackBatch from "./fixtures/track-batch.json";
import trackDelivered from "./fixtures/track-delivered.json";

const ok = (body: unknown): Recorded => ({ status: 200, body });
const sent = (req: CarrierRequest) => JSON.parse(String(req.body)) as unknown;
/** The business calls an adapter made (the token calls left out). */
const calls = (requests: CarrierRequest[]) => requests.filter((r) => !r.url.endsWith("/oauth/token"));

async function refusal(p: Promise<unknown>): Promise<CarrierError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierError);
  return error as CarrierError;
}

describe("FedEx requests", () => {
  it("authenticates with a form body and sends the domestic rate request FedEx documents", async () => {
    const http = recordedFedex(() => ok(rateSuccess));
    await fedexAdapter.rate(fedexContext(http), fedexDomesticRate());
    const [token, rate] = http.requests;
    expect(token).toMatchObject({
      method: "POST",
      url: "https://apis-sandbox.fedex.com/oauth/token",
      idempotent: true,
    });
    expect(token!.headers!["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(token!.body as URLSearchParams)).toEqual({
      grant_type: "client_credentials",
      client_id: FEDEX_CREDENTIALS.api_key,
      client_secret: FEDEX_CREDENTIALS.secret_key,
    });
    expect(rate).toMatchObject({
      method: "POST",
      url: "https://apis-sandbox.fedex.com/rate/v1/rates/quotes",
      operation: "rate",
      idempotent: true,
    });
    expect(rate!.headers).toMatchObject({
      authorization: "Bearer token-1",
      "content-type": "application/json",
      "x-locale": "en_US",
    });
    expect(sent(rate!)).toEqual(rateRequestDomestic);
  });

  it("rates an international parcel with a commodity standing in for its contents", async () => {
    const http = recordedFedex(() => ok(rateSuccess));
    await fedexAdapter.rate(fedexContext(http), fedexInternationalRate());
    expect(sent(calls(http.requests)[0]!)).toEqual(rateRequestInternational);
  });

  it("asks FedEx for one service by its type, and filters several itself", async () => {
    const http = recordedFedex(() => ok(rateSuccess));
    const one = await fedexAdapter.rate(fedexContext(http), fedexDomesticRate({ services: ["FEDEX_2_DAY"] }));
    expect((sent(calls(http.requests)[0]!) as { requestedShipment: object }).requestedShipment).toMatchObject({
      serviceType: "FEDEX_2_DAY",
    });
    expect(one.data.map((q) => q.service)).toEqual(["FEDEX_2_DAY"]);
    const two = await fedexAdapter.rate(
      fedexContext(http),
      fedexDomesticRate({ services: ["FEDEX_2_DAY", "PRIORITY_OVERNIGHT"] }),
    );
    expect(sent(calls(http.requests)[1]!)).not.toHaveProperty("requestedShipment.serviceType");
    expect(two.data.map((q) => q.service)).toEqual(["FEDEX_2_DAY"]);
    const other = await fedexAdapter.rate(fedexContext(http), fedexDomesticRate({ services: ["SBX_GROUND"] }));
    expect(sent(calls(http.requests)[2]!)).not.toHaveProperty("requestedShipment.serviceType");
    expect(other.data).toEqual([]);
  });

  it("a label without any phone number for a party is refused before any call (ship-api.json requires one)", async () => {
    const request = fedexDomesticShip();
    const http = recordedFedex(() => ok(shipSuccess));
    const error = await refusal(
      fedexAdapter.ship(fedexContext(http), {
        ...request,
        shipper: { ...request.shipper, phone_number: null },
        recipient: { ...request.recipient, phone_number: null },
      }),
    );
    expect(error.messages[0]).toMatchObject({
      code: "FEDEX_FIELD_REQUIRED",
      details: { field: "shipper.phone_number" },
    });
    expect(calls(http.requests)).toHaveLength(0);
  });

  it("sends the domestic ship request: label spec, references, payment by the shipper's account", async () => {
    const http = recordedFedex(() => ok(shipSuccess));
    await fedexAdapter.ship(fedexContext(http), fedexDomesticShip());
    const ship = calls(http.requests)[0]!;
    expect(ship).toMatchObject({
      method: "POST",
      url: "https://apis-sandbox.fedex.com/ship/v1/shipments",
      operation: "ship",
      idempotent: false,
    });
    expect(sent(ship)).toEqual(shipRequestDomestic);
  });

  it("sends the international ship request with customs, the export filing and Electronic Trade Documents", async () => {
    const http = recordedFedex(() => ok(shipSuccess));
    await fedexAdapter.ship(fedexContext(http), fedexInternationalShip());
    expect(sent(calls(http.requests)[0]!)).toEqual(shipRequestInternational);
  });

  it("incoterms: every code sent is in FedEx's terms of sale; DPU and FAS are refused before buying", async () => {
    const refused: string[] = [];
    for (const incoterm of INCOTERMS) {
      const http = recordedFedex(() => ok(shipSuccess));
      type Sent = { requestedShipment: { customsClearanceDetail: { commercialInvoice: { termsOfSale: string } } } };
      const outcome: Sent | CarrierError = await fedexAdapter
        .ship(fedexContext(http), fedexInternationalShip({ customs: fedexCustoms({ incoterm }) }))
        .then(
          () => sent(calls(http.requests)[0]!) as Sent,
          (e: unknown) => e as CarrierError,
        );
      if (outcome instanceof CarrierError) {
        refused.push(incoterm);
        expect(calls(http.requests)).toHaveLength(0);
        expect(outcome.messages[0]).toMatchObject({
          code: "not_supported",
          details: { field: "customs.incoterm", accepted: [...FEDEX_TERMS_OF_SALE] },
        });
      } else {
        const terms = outcome.requestedShipment.customsClearanceDetail.commercialInvoice.termsOfSale;
        expect(FEDEX_TERMS_OF_SALE.has(terms)).toBe(true);
        expect(terms).toBe(incoterm);
      }
    }
    expect(refused).toEqual(["DPU", "FAS"]);
    const { incoterm } = CustomsInput.parse({ commodities: [], content_type: "documents" });
    expect(FEDEX_TERMS_OF_SALE.has(incoterm)).toBe(true);
  });

  it("maps duty payers, documents, AES and customs without ETD", async () => {
    const http = recordedFedex(() => ok(shipSuccess));
    await fedexAdapter.ship(
      fedexContext(http),
      fedexInternationalShip({
        customs: fedexCustoms({
          content_type: "documents",
          content_description: "Contracts",
          commodities: [],
          commercial_invoice: false,
          incoterm: "DAP",
          duty: { paid_by: "third_party", currency: "USD", account_number: "510087020", declared_value: 0 },
          aes: "AES X20240304123456",
          eel_pfc: null,
          invoice: null,
          signer: null,
        }),
      }),
    );
    const shipment = (sent(calls(http.requests)[0]!) as { requestedShipment: Record<string, unknown> })
      .requestedShipment;
    expect(shipment).not.toHaveProperty("shipmentSpecialServices");
    expect(shipment).not.toHaveProperty("shippingDocumentSpecification");
    expect(shipment.customsClearanceDetail).toEqual({
      dutiesPayment: {
        paymentType: "THIRD_PARTY",
        payor: { responsibleParty: { accountNumber: { value: "510087020" } } },
      },
      isDocumentOnly: true,
      commercialInvoice: { termsOfSale: "DAP", shipmentPurpose: "NOT_SOLD" },
      commodities: [
        {
          description: "Contracts",
          countryOfManufacture: "US",
          numberOfPieces: 1,
          quantity: 1,
          quantityUnits: "PCS",
          customsValue: { amount: 0, currency: "USD" },
          weight: { units: "KG", value: 2.5 },
        },
      ],
      totalCustomsValue: { amount: 0, currency: "USD" },
      exportDetail: { exportComplianceStatement: "AESX20240304123456" },
    });
  });

  it("without ETD, goods across a border still get a printable commercial invoice asked for", async () => {
    const http = recordedFedex(() => ok(shipSuccess));
    await fedexAdapter.ship(
      fedexContext(http),
      fedexInternationalShip({ customs: fedexCustoms({ commercial_invoice: false }) }),
    );
    const shipment = (sent(calls(http.requests)[0]!) as { requestedShipment: Record<string, unknown> })
      .requestedShipment;
    expect(shipment).not.toHaveProperty("shipmentSpecialServices");
    expect(shipment.shippingDocumentSpecification).toEqual({
      shippingDocumentTypes: ["COMMERCIAL_INVOICE"],
      commercialInvoiceDetail: { documentFormat: { docType: "PDF", stockType: "PAPER_LETTER" } },
    });
  });

  it("picks the label stock from the label type and the connection's config", async () => {
    const http = recordedFedex(() => ok(shipSuccess));
    const spec = async (label_type: "PDF" | "PNG" | "ZPL", config: Record<string, unknown> = {}) => {
      await fedexAdapter.ship(fedexContext(http, { config }), fedexDomesticShip({ label_type })).catch(() => null);
      const last = calls(http.requests).at(-1)!;
      return (sent(last) as { requestedShipment: { labelSpecification: unknown } }).requestedShipment
        .labelSpecification;
    };
    expect(await spec("PNG")).toEqual({ labelFormatType: "COMMON2D", labelStockType: "PAPER_4X6", imageType: "PNG" });
    expect(await spec("PDF", { label_stock: "letter" })).toEqual({
      labelFormatType: "COMMON2D",
      labelStockType: "PAPER_LETTER",
      imageType: "PDF",
    });
    expect(await spec("ZPL", { label_stock: "letter" })).toEqual({
      labelFormatType: "COMMON2D",
      labelStockType: "STOCK_4X6",
      imageType: "ZPLII",
    });
    // The longer labels: paper for PDF and PNG, thermal stock for ZPL.
    expect(await spec("PDF", { label_stock: "4x6.75" })).toMatchObject({ labelStockType: "PAPER_4X675" });
    expect(await spec("ZPL", { label_stock: "4x6.75" })).toMatchObject({ labelStockType: "STOCK_4X675" });
    expect(await spec("PNG", { label_stock: "4x8" })).toMatchObject({ labelStockType: "PAPER_4X8" });
    expect(await spec("ZPL", { label_stock: "4x8" })).toMatchObject({ labelStockType: "STOCK_4X8" });
  });

  it("bills the recipient's account when the client says so, and keeps the shipment key in 30 characters", async () => {
    const http = recordedFedex(() => ok(shipSuccess));
    await fedexAdapter.ship(
      fedexContext(http, { config: { pickup_type: "USE_SCHEDULED_PICKUP" } }),
      fedexDomesticShip({ payment: { paid_by: "recipient", currency: null, account_number: "600000001" } }),
    );
    const shipment = (sent(calls(http.requests)[0]!) as { requestedShipment: Record<string, unknown> })
      .requestedShipment;
    expect(shipment.pickupType).toBe("USE_SCHEDULED_PICKUP");
    expect(shipment.shippingChargesPayment).toEqual({
      paymentType: "RECIPIENT",
      payor: { responsibleParty: { accountNumber: { value: "600000001" } } },
    });
    const key = shipmentKeyReference("shp_0123456789abcdef0123456789abcdef");
    expect(key.length).toBeLessThanOrEqual(30);
    expect(Buffer.from(key.slice(4), "base64url").toString("hex")).toBe("0123456789abcdef0123456789abcdef");
  });

  it("cancels by the master tracking number and tracks a batch in one call", async () => {
    const http = recordedFedex((req) => ok(req.url.endsWith("/cancel") ? cancelSuccess : trackBatch));
    const ctx = fedexContext(http);
    await fedexAdapter.void(ctx, { tracking_number: "794953535000", shipment_identifier: "794953535000" });
    await fedexAdapter.trackMany(ctx, ["794953535000", "7949 5353 5011"]);
    const [cancel, track] = calls(http.requests);
    expect(cancel).toMatchObject({
      method: "PUT",
      url: "https://apis-sandbox.fedex.com/ship/v1/shipments/cancel",
      idempotent: true,
    });
    expect(sent(cancel!)).toEqual({
      accountNumber: { value: FEDEX_CREDENTIALS.account_number },
      trackingNumber: "794953535000",
      deletionControl: "DELETE_ALL_PACKAGES",
    });
    expect(track).toMatchObject({
      method: "POST",
      url: "https://apis-sandbox.fedex.com/track/v1/trackingnumbers",
      idempotent: true,
    });
    expect(sent(track!)).toEqual(trackRequest);
  });
});

describe("FedEx answers", () => {
  it("rates: the account rate over the list rate, surcharges itemised, transit days, notes as info", async () => {
    const http = recordedFedex(() => ok(rateSuccess));
    const { data, messages } = await fedexAdapter.rate(fedexContext(http), fedexDomesticRate());
    expect(data).toEqual([
      {
        service: "GROUND_HOME_DELIVERY",
        service_name: "FedEx Home Delivery",
        currency: "USD",
        base_charge: 14.2,
        discount: 1.7,
        duties_and_taxes: 0,
        total_charge: 20.02,
        extra_charges: [
          { name: "Fuel Surcharge", amount: 1.57, currency: "USD" },
          { name: "Residential delivery surcharge", amount: 5.95, currency: "USD" },
        ],
        transit_days: 4,
        estimated_delivery: null,
      },
      {
        service: "FEDEX_2_DAY",
        service_name: "FedEx 2Day",
        currency: "USD",
        base_charge: 34.35,
        discount: 4.12,
        duties_and_taxes: 0,
        total_charge: 40.04,
        extra_charges: [
          { name: "Fuel Surcharge", amount: 4.46, currency: "USD" },
          { name: "Residential delivery surcharge", amount: 5.35, currency: "USD" },
        ],
        // Monday 2024-03-04 to Wednesday 2024-03-06.
        transit_days: 2,
        estimated_delivery: "2024-03-06",
      },
    ]);
    expect(messages).toEqual([
      {
        code: "SHIPMENT.CHARGES.NOTE",
        message: "Shipment level charges have been added to first package.",
        level: "info",
      },
    ]);
  });

  it("rates: an answer with only alerts is no rates, a warning and a note", async () => {
    const http = recordedFedex(() => ok(rateAlertsOnly));
    const { data, messages } = await fedexAdapter.rate(fedexContext(http), fedexDomesticRate());
    expect(data).toEqual([]);
    expect(messages).toEqual([
      {
        code: "RATE.LOCATION.NOSERVICE",
        message: "FedEx does not provide service to the destination you entered for the services requested.",
        level: "warning",
      },
      { code: "VIRTUAL.RESPONSE", message: "This is a Virtual Response.", level: "info" },
    ]);
  });

  it("rates: FedEx's errors are the refusal, with its codes and messages", async () => {
    const http = recordedFedex(() => ({ status: 400, body: rateError }));
    const error = await refusal(fedexAdapter.rate(fedexContext(http), fedexDomesticRate()));
    expect(error.messages).toEqual([
      {
        code: "ACCOUNT.NUMBER.MISMATCH",
        message:
          "When payment Type is SENDER, ShippingChargesPayment Payor AccountNumber should match the shipper account number.",
        level: "error",
        details: { status: 400 },
      },
      {
        code: "RECIPIENT.POSTALCODE.INVALID",
        message: "Recipient postal code is invalid.",
        level: "error",
        details: { status: 400, parameters: [{ key: "postalCode", value: "78701" }] },
      },
    ]);
  });

  it("ships: the label, FedEx's charge, each alert once", async () => {
    const http = recordedFedex(() => ok(shipSuccess));
    const { data, messages } = await fedexAdapter.ship(fedexContext(http), fedexDomesticShip());
    expect(data).toMatchObject({
      tracking_number: "794953535000",
      shipment_identifier: "794953535000",
      meta: { service_name: "FedEx 2Day", fedex_carrier_code: "FDXE" },
    });
    expect(data.label.type).toBe("PDF");
    expect(new TextDecoder().decode(data.label.bytes.slice(0, 5))).toBe("%PDF-");
    expect(data.charge).toEqual({
      service: "FEDEX_2_DAY",
      service_name: "FedEx 2Day",
      currency: "USD",
      base_charge: 34.35,
      discount: 4.12,
      duties_and_taxes: 0,
      total_charge: 40.04,
      extra_charges: [
        { name: "Fuel Surcharge", amount: 4.46, currency: "USD" },
        { name: "Residential delivery surcharge", amount: 5.35, currency: "USD" },
      ],
      transit_days: 2,
      estimated_delivery: "2024-03-06",
    });
    expect(messages).toEqual([
      { code: "SHIP.RECIPIENT.POSTALCITY.MISMATCH", message: "Recipient Postal-City Mismatch.", level: "info" },
      {
        code: "SHIPMENT.VALIDATION.WARNING",
        message: "The recipient phone number was taken from the shipper.",
        level: "warning",
      },
    ]);
  });

  it("ships: several parcels' PDF labels become one document, a page each", async () => {
    const answer = structuredClone(shipSuccess);
    const piece = answer.output.transactionShipments[0]!.pieceResponses[0]!;
    answer.output.transactionShipments[0]!.pieceResponses.push({
      ...piece,
      trackingNumber: "794953535011",
      packageSequenceNumber: 2,
    });
    const http = recordedFedex(() => ok(answer));
    const parcels = [...fedexDomesticShip().parcels, ...fedexDomesticShip().parcels];
    const { data } = await fedexAdapter.ship(fedexContext(http), fedexDomesticShip({ parcels }));
    expect((await PDFDocument.load(data.label.bytes)).getPageCount()).toBe(2);
    expect(data.meta.piece_tracking_numbers).toEqual(["794953535000", "794953535011"]);
  });

  it("ships: the shipment's and the pieces' customs papers become documents; a link-only one is a warning", async () => {
    const answer = structuredClone(shipSuccess) as unknown as {
      output: { transactionShipments: Record<string, unknown>[] };
    };
    const shipment = answer.output.transactionShipments[0]!;
    const piece = (shipment.pieceResponses as { packageDocuments: Record<string, unknown>[] }[])[0]!;
    const pdf = piece.packageDocuments[0]!.encodedLabel;
    const url = "https://wwwtest.fedex.com/document/v2/document/retrieve/SH,794953535000_CO/isLabel=true";
    shipment.shipmentDocuments = [
      { contentType: "COMMERCIAL_INVOICE", copiesToPrint: 1, docType: "PDF", encodedLabel: pdf },
      { contentType: "CERTIFICATE_OF_ORIGIN", copiesToPrint: 1, docType: "PDF", url },
    ];
    piece.packageDocuments.push({
      contentType: "PROFORMA_INVOICE",
      copiesToPrint: 1,
      docType: "PDF",
      encodedLabel: pdf,
    });
    const http = recordedFedex(() => ok(answer));
    const { data, messages } = await fedexAdapter.ship(fedexContext(http), fedexInternationalShip());
    expect(data.documents.map(({ bytes: _bytes, ...d }) => d)).toEqual([
      { type: "commercial_invoice", format: "PDF", name: "COMMERCIAL_INVOICE" },
      { type: "pro_forma_invoice", format: "PDF", name: "PROFORMA_INVOICE" },
    ]);
    expect(new TextDecoder().decode(data.documents[0]!.bytes.slice(0, 5))).toBe("%PDF-");
    // The label is still the piece's own, not the pro forma invoice beside it.
    expect((await PDFDocument.load(data.label.bytes)).getPageCount()).toBe(1);
    expect(messages).toContainEqual(
      expect.objectContaining({
        code: "FEDEX_DOCUMENT_NOT_KEPT",
        level: "warning",
        details: { content_type: "CERTIFICATE_OF_ORIGIN", url },
      }),
    );
    expect(data.meta).not.toHaveProperty("documents");
  });

  it("ships: a refusal is FedEx's code; an answer without a label is a bad response", async () => {
    const http = recordedFedex(() => ({ status: 400, body: shipError }));
    const error = await refusal(fedexAdapter.ship(fedexContext(http), fedexDomesticShip()));
    expect(error.code).toBe("SERVICE.PACKAGECOMBINATION.INVALID");
    expect(error.message).toBe("Invalid service and packaging combination.");

    const noLabel = structuredClone(shipSuccess);
    noLabel.output.transactionShipments[0]!.pieceResponses[0]!.packageDocuments = [];
    const bad = await refusal(fedexAdapter.ship(fedexContext(recordedFedex(() => ok(noLabel))), fedexDomesticShip()));
    expect(bad.code).toBe("carrier_bad_response");
  });

  it("cancels: a success with its notes; an already-cancelled shipment is a success that says so", async () => {
    const req = { tracking_number: "794953535000", shipment_identifier: "794953535000" };
    const done = await fedexAdapter.void(fedexContext(recordedFedex(() => ok(cancelSuccess))), req);
    expect(done).toEqual({
      data: { voided: true, refund: null },
      messages: [
        {
          code: "SHIPMENT.VALIDATION.SUCCESS",
          message: "Shipment validated successfully. No errors found.",
          level: "info",
        },
      ],
    });
    const again = await fedexAdapter.void(
      fedexContext(recordedFedex(() => ({ status: 400, body: cancelAlreadyCancelled }))),
      req,
    );
    expect(again.data).toEqual({ voided: true, refund: null });
    expect(again.messages).toEqual([
      {
        code: "SHIPMENT.ALREADY.CANCELLED",
        level: "info",
        message:
          "Shipment 794953535000 was already cancelled at FedEx: Shipment Delete was requested for a tracking number already in a deleted state.",
        details: { tracking_number: "794953535000" },
      },
    ]);
  });

  it("cancels: cancelledShipment false is a refusal unless FedEx says it was cancelled before", async () => {
    const req = { tracking_number: "794953535000", shipment_identifier: null };
    const answer = (code: string, message: string) =>
      ok({ output: { cancelledShipment: false, alerts: [{ code, message, alertType: "WARNING" }] } });
    const before = await fedexAdapter.void(
      fedexContext(recordedFedex(() => answer("SHIPMENT.CANCEL.FAILED", "Shipment has already been cancelled."))),
      req,
    );
    expect(before.messages[0]).toMatchObject({ level: "info", code: "SHIPMENT.CANCEL.FAILED" });
    const refused = await refusal(
      fedexAdapter.void(
        fedexContext(recordedFedex(() => answer("SHIPMENT.CANCEL.NOTALLOWED", "The shipment has been tendered."))),
        req,
      ),
    );
    expect(refused.messages[0]).toMatchObject({
      code: "SHIPMENT.CANCEL.NOTALLOWED",
      message: "The shipment has been tendered.",
      level: "error",
    });
    const invalid = await refusal(
      fedexAdapter.void(
        fedexContext(
          recordedFedex(() => ({
            status: 400,
            body: {
              errors: [{ code: "TRACKINGNUMBER.ENTERED.INVALID", message: "Error with entered Tracking Number." }],
            },
          })),
        ),
        req,
      ),
    );
    expect(invalid.code).toBe("TRACKINGNUMBER.ENTERED.INVALID");
  });

  it("tracks a batch: a number FedEx knows, newest event first, and one it does not as tracking_not_found", async () => {
    const http = recordedFedex(() => ok(trackBatch));
    const { data, messages } = await fedexAdapter.trackMany(fedexContext(http), ["794953535000", "7949 5353 5011"]);
    expect(messages).toEqual([]);
    expect(data["794953535000"]).toEqual({
      tracking_number: "794953535000",
      status: "in_transit",
      estimated_delivery: "2024-03-06",
      meta: { carrier_code: "FDXE", service: "FedEx 2Day", status_description: "In transit" },
      events: [
        {
          date: "2024-03-05",
          time: "02:47",
          description: "Arrived at FedEx location",
          location: "MEMPHIS, TN, 38118, US",
          code: "AR",
          status: "in_transit",
          occurred_at: "2024-03-05T08:47:00.000Z",
        },
        {
          date: "2024-03-04",
          time: "16:12",
          description: "Picked up",
          location: "CHICAGO, IL, 60607, US",
          code: "PU",
          status: "picked_up",
          occurred_at: "2024-03-04T22:12:00.000Z",
        },
        {
          date: "2024-03-04",
          time: "09:01",
          description: "Shipment information sent to FedEx",
          location: "60607, US",
          code: "OC",
          status: "pending",
          occurred_at: "2024-03-04T15:01:00.000Z",
        },
      ],
    } satisfies TrackingResult);
    const missing = data["7949 5353 5011"];
    expect(missing).toBeInstanceOf(CarrierError);
    expect((missing as CarrierError).messages).toEqual([
      {
        code: "tracking_not_found",
        level: "error",
        message: "Tracking number cannot be found. Please correct the tracking number and try again.",
        details: { tracking_number: "7949 5353 5011", carrier_code: "TRACKING.TRACKINGNUMBER.NOTFOUND" },
      },
    ]);
  });

  it("tracks a delivered parcel: delivered, exceptions described, who signed", async () => {
    const { data } = await fedexAdapter.track(fedexContext(recordedFedex(() => ok(trackDelivered))), "794953535000");
    expect(data.status).toBe("delivered");
    expect(data.estimated_delivery).toBeNull();
    expect(data.events.map((e) => [e.code, e.status])).toEqual([
      ["DL", "delivered"],
      ["OD", "out_for_delivery"],
      ["DE", "delivery_failed"],
      ["PU", "picked_up"],
    ]);
    expect(data.events[2]!.description).toBe("Delivery exception: Package delayed");
    expect(data.meta).toMatchObject({ signed_by: "B.RECEIVER", delivered_at: "2024-03-06T14:05:00-06:00" });
  });

  it("track of one unknown number throws its tracking_not_found", async () => {
    const http = recordedFedex(() => ok(trackBatch));
    const error = await refusal(fedexAdapter.track(fedexContext(http), "794953535011"));
    expect(error.code).toBe("tracking_not_found");
  });

  it("trackMany sends at most 30 numbers a call", async () => {
    const http = recordedFedex(() => ok({ output: { completeTrackResults: [] } }));
    const numbers = Array.from({ length: 45 }, (_, i) => `79495353${String(i).padStart(4, "0")}`);
    const { data } = await fedexAdapter.trackMany(fedexContext(http), numbers);
    expect(calls(http.requests).map((r) => (sent(r) as { trackingInfo: unknown[] }).trackingInfo.length)).toEqual([
      30, 15,
    ]);
    expect(Object.keys(data)).toEqual(numbers);
    expect(Object.values(data).every((r) => r instanceof CarrierError && r.code === "tracking_not_found")).toBe(true);
  });

  it("reads a gzip body that fetch left compressed", async () => {
    const http = recordedFedex(() => ({ status: 200, body: rateSuccess, gzip: true }));
    const { data } = await fedexAdapter.rate(fedexContext(http), fedexDomesticRate());
    expect(data).toHaveLength(2);
  });
});

describe("FedEx failures", () => {
  it("a 401 is retried once with a new token; a second 401 is carrier_auth_failed", async () => {
    let business = 0;
    const once = recordedFedex(() =>
      ++business === 1
        ? { status: 401, body: { errors: [{ code: "NOT.AUTHORIZED.ERROR", message: "Access token expired." }] } }
        : ok(rateSuccess),
    );
    const tokens = new TokenCache();
    await fedexAdapter.rate(fedexContext(once, { tokens }), fedexDomesticRate());
    expect(calls(once.requests).map((r) => r.headers!.authorization)).toEqual(["Bearer token-1", "Bearer token-2"]);

    const always = recordedFedex(() => ({
      status: 401,
      body: { errors: [{ code: "NOT.AUTHORIZED.ERROR", message: "Access token expired." }] },
    }));
    const error = await refusal(fedexAdapter.rate(fedexContext(always), fedexDomesticRate()));
    expect(error.code).toBe("carrier_auth_failed");
    expect(error.message).toContain("Access token expired.");
    expect(calls(always.requests)).toHaveLength(2);
  });

  it("the token endpoint refusing the key pair is carrier_auth_failed", async () => {
    const http = {
      requests: [] as CarrierRequest[],
      async request(req: CarrierRequest) {
        this.requests.push(req);
        const body = new TextEncoder().encode(
          JSON.stringify({
            errors: [{ code: "NOT.AUTHORIZED.ERROR", message: "The given client credentials were not valid." }],
          }),
        );
        return { status: 401, headers: new Headers(), body, text: () => "", json: <T>() => ({}) as T };
      },
    };
    const error = await refusal(fedexAdapter.rate(fedexContext(http), fedexDomesticRate()));
    expect(error.code).toBe("carrier_auth_failed");
    expect(error.message).toContain("The given client credentials were not valid.");
    expect(http.requests).toHaveLength(1);
  });

  it("a 5xx is carrier_unavailable in FedEx's words; a 2xx that is not JSON is a bad response", async () => {
    const down = recordedFedex(() => ({
      status: 503,
      body: { errors: [{ code: "SERVICE.UNAVAILABLE.ERROR", message: "The service is currently unavailable." }] },
    }));
    const error = await refusal(fedexAdapter.rate(fedexContext(down), fedexDomesticRate()));
    expect(error.messages[0]).toMatchObject({
      code: "carrier_unavailable",
      message: "FedEx is unavailable: The service is currently unavailable.",
      details: { status: 503, carrier_code: "SERVICE.UNAVAILABLE.ERROR" },
    });
    const garbled = recordedFedex(() => ({ status: 200, body: "<html>maintenance</html>" }));
    expect((await refusal(fedexAdapter.rate(fedexContext(garbled), fedexDomesticRate()))).code).toBe(
      "carrier_bad_response",
    );
  });

  it("tracking uses its own key pair when the connection has one", async () => {
    const http = recordedFedex(() => ok(trackBatch));
    const credentials = { ...FEDEX_CREDENTIALS, track_api_key: "track-key", track_secret_key: "track-secret" };
    const ctx = fedexContext(http, { credentials });
    await fedexAdapter.trackMany(ctx, ["794953535000"]);
    await fedexAdapter.rate(
      fedexContext(
        recordedFedex(() => ok(rateSuccess)),
        { credentials, tokens: ctx.tokens },
      ),
      fedexDomesticRate(),
    );
    const token = http.requests.find((r) => r.url.endsWith("/oauth/token"))!;
    expect((token.body as URLSearchParams).get("client_id")).toBe("track-key");
  });
});

describe("FedEx connection settings", () => {
  it("requires the key pair and a numeric account; refuses unknown keys and half a tracking pair", () => {
    expect(fedexAdapter.credentialsSchema.safeParse(FEDEX_CREDENTIALS).success).toBe(true);
    expect(fedexAdapter.credentialsSchema.safeParse({ ...FEDEX_CREDENTIALS, account_number: "12-34" }).success).toBe(
      false,
    );
    expect(fedexAdapter.credentialsSchema.safeParse({ ...FEDEX_CREDENTIALS, meter_number: "1" }).success).toBe(false);
    expect(fedexAdapter.credentialsSchema.safeParse({ ...FEDEX_CREDENTIALS, track_api_key: "k" }).success).toBe(false);
    expect(
      fedexAdapter.configSchema.safeParse({ label_stock: "letter", pickup_type: "USE_SCHEDULED_PICKUP" }).success,
    ).toBe(true);
    expect(fedexAdapter.configSchema.safeParse({ label_stock: "A4" }).success).toBe(false);
    // Sizes FedEx prints and the adapter declares; one it does not declare is refused when the connection is saved.
    expect(fedexAdapter.label_sizes).toEqual(["4x6", "4x6.75", "4x8", "letter"]);
    for (const size of fedexAdapter.label_sizes)
      expect(fedexAdapter.configSchema.safeParse({ label_stock: size }).success).toBe(true);
    expect(fedexAdapter.configSchema.safeParse({ label_stock: "4x9" }).success).toBe(false);
    expect(fedexAdapter.configSchema.safeParse({ labelstock: "4x6" }).success).toBe(false);
  });
});

describe("FedEx's conditional fields (ship-api.json's prose rules)", () => {
  type Shipment = Record<string, unknown> & {
    requestedPackageLineItems: Record<string, unknown>[];
    customsClearanceDetail?: { commodities: Record<string, unknown>[]; exportDetail?: Record<string, unknown> };
  };
  async function shipped(req: Parameters<typeof fedexAdapter.ship>[1], config: Record<string, unknown> = {}) {
    const http = recordedFedex(() => ok(shipSuccess));
    await fedexAdapter.ship(fedexContext(http, { config }), req);
    return (sent(calls(http.requests)[0]!) as { requestedShipment: Shipment }).requestedShipment;
  }
  const place = (city: string, state_code: string, postal_code: string, country_code: string) => ({
    ...fedexDomesticRate().recipient,
    phone_number: "+1 514 555 0100",
    city,
    state_code,
    postal_code,
    country_code,
  });
  const toronto = place("Toronto", "ON", "M5V 2T6", "CA");
  const montreal = place("Montreal", "QC", "H2Y 1C6", "CA");
  const monterrey = place("Monterrey", "NL", "64000", "MX");
  const london = fedexInternationalRate().recipient;
  const cad = (value: number) =>
    fedexCustoms({
      eel_pfc: null,
      commodities: [{ ...fedexCustoms().commodities[1]!, value_amount: value, value_currency: "CAD" }],
    });

  it("Ground Economy (SMART_POST) is bought with smartPostInfoDetail: the connection's hub, indicia by weight", async () => {
    const light = fedexDomesticShip({
      service: "SMART_POST",
      parcels: [{ ...fedexDomesticShip().parcels[0]!, weight: 12, weight_unit: "OZ" }],
    });
    expect((await shipped(light, { smart_post_hub_id: "5015" })).smartPostInfoDetail).toEqual({
      hubId: "5015",
      indicia: "PRESORTED_STANDARD",
    });
    const heavier = fedexDomesticShip({ service: "SMART_POST" });
    expect((await shipped(heavier, { smart_post_hub_id: "5015" })).smartPostInfoDetail).toEqual({
      hubId: "5015",
      indicia: "PARCEL_SELECT",
    });
    expect((await shipped(fedexDomesticShip(), { smart_post_hub_id: "5015" })).smartPostInfoDetail).toBeUndefined();
  });

  it("without a hub id, Ground Economy is refused before buying and left out of rates", async () => {
    const http = recordedFedex(() => ok(shipSuccess));
    const error = await refusal(fedexAdapter.ship(fedexContext(http), fedexDomesticShip({ service: "SMART_POST" })));
    expect(error.messages[0]).toMatchObject({ code: "not_supported", details: { field: "service" } });
    expect(error.message).toMatch(/smart_post_hub_id/);
    expect(calls(http.requests)).toHaveLength(0);

    const withGroundEconomy = structuredClone(rateSuccess);
    const replies = withGroundEconomy.output.rateReplyDetails as Record<string, unknown>[];
    replies.push({ ...replies[0]!, serviceType: "SMART_POST", serviceName: "FedEx Ground Economy" });
    const noHub = recordedFedex(() => ok(withGroundEconomy));
    const quotes = await fedexAdapter.rate(fedexContext(noHub), fedexDomesticRate());
    expect(quotes.data.map((q) => q.service)).not.toContain("SMART_POST");
    expect((sent(calls(noHub.requests)[0]!) as { requestedShipment: Shipment }).requestedShipment).not.toHaveProperty(
      "smartPostInfoDetail",
    );

    const hub = recordedFedex(() => ok(withGroundEconomy));
    const offered = await fedexAdapter.rate(
      fedexContext(hub, { config: { smart_post_hub_id: "5015" } }),
      fedexDomesticRate(),
    );
    expect(offered.data.map((q) => q.service)).toContain("SMART_POST");
    expect((sent(calls(hub.requests)[0]!) as { requestedShipment: Shipment }).requestedShipment).toMatchObject({
      smartPostInfoDetail: { hubId: "5015", indicia: "PARCEL_SELECT" },
    });
    expect(fedexAdapter.configSchema.safeParse({ smart_post_hub_id: "50155" }).success).toBe(false);

    // Asked for by name without a hub: refused alone (no call), a warning beside other services.
    const alone = recordedFedex(() => ok(withGroundEconomy));
    const refused = await refusal(
      fedexAdapter.rate(fedexContext(alone), fedexDomesticRate({ services: ["SMART_POST"] })),
    );
    expect(refused.messages[0]).toMatchObject({ code: "not_supported", details: { field: "service" } });
    expect(calls(alone.requests)).toHaveLength(0);
    const beside = await fedexAdapter.rate(
      fedexContext(recordedFedex(() => ok(withGroundEconomy))),
      fedexDomesticRate({ services: ["SMART_POST", "FEDEX_2_DAY"] }),
    );
    expect(beside.data.map((q) => q.service)).toEqual(["FEDEX_2_DAY"]);
    expect(beside.messages).toContainEqual(
      expect.objectContaining({ code: "not_supported", level: "warning", details: { field: "service" } }),
    );
  });

  it("subPackagingType on every package to Canada, and into the US from Canada or Mexico; not elsewhere", async () => {
    const tube = { ...fedexDomesticShip().parcels[0]!, packaging_type: "tube" };
    const toCanada = await shipped(
      fedexInternationalShip({ recipient: toronto, parcels: [fedexDomesticShip().parcels[0]!, tube] }),
    );
    expect(toCanada.requestedPackageLineItems.map((p) => p.subPackagingType)).toEqual(["CARTON", "TUBE"]);
    const withinCanada = await shipped(fedexDomesticShip({ shipper: montreal, recipient: toronto }));
    expect(withinCanada.requestedPackageLineItems[0]!.subPackagingType).toBe("CARTON");
    const fromMexico = await shipped(
      fedexInternationalShip({ shipper: monterrey, recipient: fedexDomesticRate().recipient }),
    );
    expect(fromMexico.requestedPackageLineItems[0]!.subPackagingType).toBe("CARTON");
    expect((await shipped(fedexDomesticShip())).requestedPackageLineItems[0]).not.toHaveProperty("subPackagingType");
    expect((await shipped(fedexInternationalShip())).requestedPackageLineItems[0]).not.toHaveProperty(
      "subPackagingType",
    );
  });

  it("b13AFilingOption for goods exported from Canada beyond the US: NOT_REQUIRED under CAD 2,000, else filed", async () => {
    const fromCanada = (customs: ReturnType<typeof fedexCustoms>, recipient = london) =>
      fedexInternationalShip({ shipper: toronto, recipient, customs });
    expect((await shipped(fromCanada(cad(500)))).customsClearanceDetail!.exportDetail).toEqual({
      b13AFilingOption: "NOT_REQUIRED",
    });
    const filed = await shipped(fromCanada({ ...cad(5000), aes: "PR 20241234567890" }));
    expect(filed.customsClearanceDetail!.exportDetail).toEqual({
      b13AFilingOption: "FILED_ELECTRONICALLY",
      exportComplianceStatement: "PR20241234567890",
    });
    const http = recordedFedex(() => ok(shipSuccess));
    const error = await refusal(fedexAdapter.ship(fedexContext(http), fromCanada(cad(5000))));
    expect(error.messages[0]).toMatchObject({ code: "not_supported", details: { field: "customs.aes" } });
    expect(calls(http.requests)).toHaveLength(0);
    // To the US (and PR, VI) no B13A option; documents need none.
    const toUs = await shipped(fromCanada(cad(5000), fedexDomesticRate().recipient));
    expect(toUs.customsClearanceDetail!.exportDetail).toBeUndefined();
    const documents = await shipped(
      fromCanada(fedexCustoms({ content_type: "documents", commodities: [], eel_pfc: null })),
    );
    expect(documents.customsClearanceDetail!.exportDetail).toBeUndefined();
  });

  it("numberOfPieces on every commodity: the parcels the shipment travels in", async () => {
    const one = await shipped(fedexInternationalShip());
    expect(one.customsClearanceDetail!.commodities.map((c) => c.numberOfPieces)).toEqual([1, 1]);
    const parcel = fedexInternationalShip().parcels[0]!;
    const two = await shipped(fedexInternationalShip({ parcels: [parcel, parcel] }));
    expect(two.customsClearanceDetail!.commodities.map((c) => c.numberOfPieces)).toEqual([2, 2]);
  });
});
