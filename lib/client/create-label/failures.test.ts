import { describe, expect, it } from "vitest";
import { ApiProblem } from "@/lib/client/api";
import type { Message } from "@/lib/schemas/message";
import { BuyError } from "./buy-label";
import { buyFailure, carrierFieldErrors, ratesFailure } from "./failures";

const carrierMessage = (code: string, message: string, details: Record<string, unknown> = {}): Message => ({
  carrier_name: "sandbox",
  carrier_id: "sandbox",
  code,
  message,
  level: "error",
  details,
});

describe("ratesFailure", () => {
  it("puts validation errors on their fields and the rest in the summary", () => {
    const problem = new ApiProblem(
      400,
      [
        { code: "validation_error", message: "must be greater than 0", field: "parcels[0].weight" },
        { code: "validation_error", message: "is not a known connection", field: "carrier_ids[0]" },
      ],
      [],
      null,
    );
    expect(ratesFailure(problem)).toMatchObject({
      text: "Fix the highlighted fields.",
      fields: [{ field: "parcels.0.weight", message: "must be greater than 0" }],
      other: ["carrier_ids[0] is not a known connection"],
    });
  });

  it("says so when the server cannot be reached", () => {
    expect(ratesFailure(new TypeError("Failed to fetch")).text).toBe(
      "The server could not be reached. Get rates again.",
    );
  });

  it("passes the API's message on for other refusals", () => {
    const problem = new ApiProblem(
      404,
      [{ code: "carrier_not_found", message: "No active connection.", field: null }],
      [],
      null,
    );
    expect(ratesFailure(problem).text).toBe("No active connection.");
  });
});

describe("carrierFieldErrors", () => {
  it("lands a carrier's error on the field its details name", () => {
    const messages = [
      carrierMessage("SBX_INVALID_POSTAL_CODE", "Invalid postal code 00000 for US.", {
        field: "recipient.postal_code",
      }),
      carrierMessage("SBX_UNKNOWN_SERVICE", "Unknown service.", { field: "service" }),
      carrierMessage("carrier_timeout", "Timed out."),
    ];
    expect(carrierFieldErrors(messages)).toEqual([
      { field: "recipient.postal_code", message: "Invalid postal code 00000 for US." },
    ]);
  });
});

describe("buyFailure", () => {
  it("reassures that pressing again cannot buy twice after a lost answer", () => {
    const failure = buyFailure(new BuyError("buy", new TypeError("Failed to fetch"), "shp_1"));
    expect(failure.text).toMatch(/cannot buy a second label/);
    expect(failure.shipmentId).toBe("shp_1");
  });

  it("shows a carrier's refusal with its messages", () => {
    const refused = new ApiProblem(424, [], [carrierMessage("SBX_DOWN", "Try later.")], null);
    expect(buyFailure(new BuyError("buy", refused, "shp_1"))).toMatchObject({
      text: "The carrier refused the purchase. Nothing was bought.",
      messages: [{ code: "SBX_DOWN" }],
    });
  });

  it("links to the shipment when the purchase's outcome is unknown", () => {
    const unknown = new ApiProblem(
      409,
      [{ code: "purchase_outcome_unknown", message: "Check your sandbox account, then…", field: null }],
      [],
      null,
    );
    expect(buyFailure(new BuyError("buy", unknown, "shp_9"))).toMatchObject({
      text: "Check your sandbox account, then…",
      shipmentId: "shp_9",
    });
    const timedOut = new ApiProblem(
      424,
      [],
      [
        carrierMessage("carrier_timeout", "Timed out."),
        carrierMessage("purchase_outcome_unknown", "It may have sold."),
      ],
      null,
    );
    expect(buyFailure(new BuyError("buy", timedOut, "shp_9"))).toMatchObject({
      text: "It may have sold.",
      messages: [{ code: "carrier_timeout" }],
      shipmentId: "shp_9",
    });
  });

  it("maps an incomplete address onto its fields", () => {
    const incomplete = new ApiProblem(
      422,
      [{ code: "address_incomplete", message: "is required to buy a label", field: "shipper.address_line1" }],
      [],
      null,
    );
    expect(buyFailure(new BuyError("buy", incomplete, "shp_1")).fields).toEqual([
      { field: "shipper.address_line1", message: "is required to buy a label" },
    ]);
  });
});
