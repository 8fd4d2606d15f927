import { describe, expect, it } from "vitest";
import type { CarrierMessage } from "@/lib/carriers/types";
import {
  answerLost,
  attemptMessages,
  attemptWindow,
  CANCEL_ATTEMPT,
  carrierReference,
  instantOf,
  labelOnOffer,
  labelWithheld,
  PURCHASE_ATTEMPT,
  purchaseAttemptOf,
  purchaseOutcomeText,
  withoutAttempts,
  type PurchaseAttempt,
} from "./outcome-unknown";

/** What a shipment remembers about an operation whose answer was lost, and what it says about it. */

const attempt: PurchaseAttempt = {
  started_at: "2030-01-01 00:00:00.000000+00:00",
  settled_by: "2030-01-01 00:02:30.000000+00:00",
  carrier_connection_id: "car_1",
  carrier_name: "sandbox",
  carrier_id: "sandbox-main",
  selected_rate_id: "rat_1",
  reference: "ORDER-9",
  label_type: "PDF",
  payment: { paid_by: "sender", currency: "USD", account_number: null },
};
const cancel = { started_at: "2030-01-02 00:00:00.000000+00:00", settled_by: "2030-01-02 00:02:00.000000+00:00" };

const message = (code: CarrierMessage["code"]): CarrierMessage => ({
  carrier_name: "sandbox",
  carrier_id: "sandbox",
  code,
  message: "",
  level: "error",
  details: {},
});

describe("the attempts in meta", () => {
  it("keeps them under their own keys, and drops only them once settled", () => {
    expect(PURCHASE_ATTEMPT).toBe("purchase_attempt");
    expect(CANCEL_ATTEMPT).toBe("cancel_attempt");
    expect(purchaseAttemptOf({ purchase_attempt: attempt })).toBe(attempt);
    expect(purchaseAttemptOf({ cancel_attempt: cancel })).toBeNull();
    expect(withoutAttempts({ purchase_attempt: attempt, cancel_attempt: cancel, service_name: "Ground" })).toEqual({
      service_name: "Ground",
    });
  });

  it("sends the client's reference, else the shipment id", () => {
    expect(carrierReference(attempt, "shp_1")).toBe("ORDER-9");
    expect(carrierReference({ reference: null }, "shp_1")).toBe("shp_1");
  });

  it("counts a timeout or an unreadable answer as lost, any other failure as a refusal", () => {
    expect(answerLost([message("carrier_timeout")])).toBe(true);
    expect(answerLost([message("carrier_unavailable"), message("carrier_bad_response")])).toBe(true);
    expect(answerLost([message("carrier_unavailable")])).toBe(false);
    expect(answerLost([])).toBe(false);
  });

  it("writes the window in the API's timestamps, which read back as the same instants", () => {
    const start = new Date("2030-01-01T00:00:00.123Z");
    const end = new Date("2030-01-01T00:02:30.000Z");
    const window = attemptWindow(start, end);
    expect(window).toEqual({
      started_at: "2030-01-01 00:00:00.123000+00:00",
      settled_by: "2030-01-01 00:02:30.000000+00:00",
    });
    expect(instantOf(window.started_at)).toEqual(start);
    expect(instantOf(window.settled_by)).toEqual(end);
  });
});

describe("what a shipment says while an attempt stays", () => {
  it("tells the client where the label may be and what to do", () => {
    const text = purchaseOutcomeText(attempt, "shp_1");
    expect(text).toContain("sent to sandbox (sandbox-main) at 2030-01-01 00:00:00.000000+00:00");
    expect(text).toContain("a label with reference ORDER-9");
    expect(text).toContain('"confirm_rebuy": true');
    expect(purchaseOutcomeText({ ...attempt, reference: null }, "shp_1")).toContain("a label with reference shp_1");
    // The whole text, as clients read it in a 424's messages, a 409 and the stored shipment.
    expect(text).toBe(
      "A label purchase of this shipment was sent to sandbox (sandbox-main) at 2030-01-01 00:00:00.000000+00:00 and " +
        "its outcome is not recorded: the carrier may have sold a label with reference ORDER-9. Until this is " +
        "settled, purchasing answers 409 purchase_outcome_unknown (where the carrier can look labels up, a purchase " +
        'first looks for that label and records it). Check the carrier account, then send the purchase again with "confirm_rebuy": ' +
        "true to buy a label anyway, or cancel the shipment (a label found at the carrier is voided).",
    );
  });

  it("one error per attempt, with its window", () => {
    const row = { id: "shp_1", carrierName: "ups", carrierId: "ups-main", meta: {} };
    expect(attemptMessages(row)).toEqual([]);
    expect(attemptMessages({ ...row, meta: { purchase_attempt: attempt, cancel_attempt: cancel } })).toEqual([
      {
        carrier_name: "sandbox",
        carrier_id: "sandbox-main",
        code: "purchase_outcome_unknown",
        message: purchaseOutcomeText(attempt, "shp_1"),
        level: "error",
        details: { started_at: attempt.started_at, settled_by: attempt.settled_by },
      },
      {
        carrier_name: "ups",
        carrier_id: "ups-main",
        code: "cancel_outcome_unknown",
        message:
          `A cancellation of this shipment was sent to the carrier at ${cancel.started_at} and its outcome is not ` +
          "recorded: the label may be voided, so it is not handed out. Cancel the shipment again to finish (a label " +
          "the carrier already voided counts as voided).",
        level: "error",
        details: cancel,
      },
    ]);
    const unsaved = { id: null, carrierName: null, carrierId: null };
    expect(attemptMessages({ ...unsaved, meta: { cancel_attempt: cancel } })[0]).toMatchObject({
      carrier_name: "",
      carrier_id: "",
    });
    expect(
      attemptMessages({ ...unsaved, meta: { purchase_attempt: { ...attempt, reference: null } } })[0]!.message,
    ).toBe(purchaseOutcomeText({ ...attempt, reference: null }, ""));
  });

  it("offers the label unless the shipment is cancelled or a void of it may have happened", () => {
    expect(labelOnOffer({ status: "purchased", meta: {} })).toBe(true);
    expect(labelOnOffer({ status: "purchased", meta: { purchase_attempt: attempt } })).toBe(true);
    expect(labelOnOffer({ status: "cancelled", meta: {} })).toBe(false);
    expect(labelOnOffer({ status: "purchased", meta: { cancel_attempt: cancel } })).toBe(false);
  });

  it("says why a label is withheld, the cancellation first", () => {
    expect(labelWithheld({ status: "purchased", meta: { purchase_attempt: attempt } })).toBeNull();
    expect(labelWithheld({ status: "cancelled", meta: { cancel_attempt: cancel } })).toBe(
      "the shipment is cancelled and its label voided",
    );
    expect(labelWithheld({ status: "purchased", meta: { cancel_attempt: cancel } })).toBe(
      "a cancellation's outcome is not recorded: the label may be voided",
    );
  });
});
