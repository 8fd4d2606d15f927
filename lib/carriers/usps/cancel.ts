import {
  CarrierError,
  carrierCode,
  hasCode,
  type AdapterContext,
  type AdapterMessage,
  type AdapterResult,
  type Refund,
  type RefundCheck,
  type TrackingResult,
  type VoidRequest,
  type VoidResult,
} from "@/lib/carriers/types";
import { sendAuthorized } from "@/lib/carriers/usps/auth";
import { readUspsConfig } from "@/lib/carriers/usps/config";
import { badResponse, errorFromResponse } from "@/lib/carriers/usps/errors";
import { PRE_SHIPMENT_CODES, USPS_STATUS_BY_CODE } from "@/lib/carriers/usps/status";

/**
 * Cancelling a label (domestic-labels.yaml `DELETE /labels/v3/label/{trackingNumber}`, international-labels.yaml
 * `DELETE /international-labels/v3/international-label/{trackingNumber}`; docs/usps.md, "Cancel and refunds"), with the
 * payment token. USPS answers `CANCELED` when the label is voided before it was billed (no refund to wait for), or
 * `DISPUTED` with a `disputeId` once the label was in a Shipping Services File: USPS has opened a refund request, which
 * we report as pending under that id.
 *
 * USPS publishes no call that reads a dispute's outcome (none of the vendored files has one), so `checkRefund`
 * reads what USPS does publish, the label's tracking: a scan of the parcel means the label was used, and USPS does
 * not refund a used label (`refused`); no scan within the connection's review window (`refund_review_days`,
 * default 30) is taken as granted (`refunded`), with a message saying it is inferred; before that, `pending`.
 */

/**
 * USPS's refusal of a second refund request for a label the same day (domestic-labels.yaml
 * `ExampleCancelError_REFUND_SAMELABEL_SAMEDAY`: "A refund request for this order has already been submitted today").
 * The file gives its code as a placeholder (`00000XX`), so the words are what tell it apart.
 */
function refundAlreadyRequested(text: string): boolean {
  return /refund request for this (order|label) has already been submitted/i.test(text);
}

/** International labels carry a 13-character S10 number; domestic ones 20 digits or more. */
const isInternationalNumber = (tn: string) => /^[A-Z]{2}\d{9}[A-Z]{2}$/.test(tn);

export async function voidLabel(ctx: AdapterContext, req: VoidRequest): Promise<AdapterResult<VoidResult>> {
  const tn = (req.shipment_identifier ?? req.tracking_number).replace(/\s+/g, "").toUpperCase();
  const path = isInternationalNumber(tn)
    ? `/international-labels/v3/international-label/${encodeURIComponent(tn)}`
    : `/labels/v3/label/${encodeURIComponent(tn)}`;
  const res = await sendAuthorized(
    ctx,
    () => ({ method: "DELETE", url: `${ctx.baseUrl}${path}`, operation: "void", idempotent: true }),
    { payment: true },
  );
  if (res.status === 400 && refundAlreadyRequested(res.text())) {
    // A void whose first answer was lost (the HTTP client repeats a DELETE after a 5xx or a dropped connection), or
    // a clerk cancelling again the same day: USPS already holds the refund request, so the label is voided.
    return {
      data: { voided: true, refund: { status: "pending", reference: null } },
      messages: [
        {
          code: carrierCode("USPS_REFUND_PENDING"),
          level: "info",
          message: "USPS already holds a refund request for this label; the refund is pending until USPS settles it.",
        },
      ],
    };
  }
  if (res.status !== 200) throw errorFromResponse(res);
  const body = res.json<{ status?: unknown; disputeId?: unknown }>();
  if (body?.status === "CANCELED") return { data: { voided: true, refund: null }, messages: [] };
  if (body?.status === "DISPUTED") {
    const reference = typeof body.disputeId === "string" && body.disputeId ? body.disputeId : null;
    const messages: AdapterMessage[] = [
      {
        code: carrierCode("USPS_REFUND_PENDING"),
        level: "info",
        message: `USPS had billed the label, so it opened a refund request${reference ? ` (dispute ${reference})` : ""}; the refund is pending until USPS settles it.`,
      },
    ];
    return { data: { voided: true, refund: { status: "pending", reference } }, messages };
  }
  throw badResponse("a cancellation status it documents (CANCELED or DISPUTED)");
}

const DAY_MS = 86_400_000;

/** Whether the tracking shows any scan of the parcel itself (anything but "label created"). */
/**
 * Whether the parcel was scanned: an event whose code USPS lists (the status table) and that is not one of the codes
 * of a label only made. A blank or unlisted code proves nothing, and a refusal of the refund must be proven.
 */
function scanned(tracking: TrackingResult): boolean {
  return tracking.events.some((e) => {
    const code = e.code.trim().toUpperCase();
    return USPS_STATUS_BY_CODE.has(code) && !PRE_SHIPMENT_CODES.has(code);
  });
}

export async function checkRefund(
  ctx: AdapterContext,
  req: RefundCheck,
  track: (ctx: AdapterContext, tn: string) => Promise<AdapterResult<TrackingResult>>,
): Promise<AdapterResult<Refund>> {
  const { refundReviewDays } = readUspsConfig(ctx.connection.config);
  let tracking: TrackingResult | null = null;
  try {
    tracking = (await track(ctx, req.tracking_number)).data;
  } catch (error) {
    // USPS not knowing the number is "no scan"; anything else (unreachable, throttled) is not an answer.
    if (!(error instanceof CarrierError && hasCode(error.messages, "tracking_not_found"))) throw error;
  }
  const reference = req.refund.reference;
  if (tracking && scanned(tracking)) {
    return {
      data: { status: "refused", reference },
      messages: [
        {
          code: carrierCode("USPS_REFUND_REFUSED"),
          level: "warning",
          message: "USPS scanned the parcel after the label was cancelled: a used label is not refunded.",
        },
      ],
    };
  }
  const waited = ctx.now().getTime() - req.requested_at.getTime();
  if (waited >= refundReviewDays * DAY_MS) {
    return {
      data: { status: "refunded", reference },
      messages: [
        {
          code: carrierCode("USPS_REFUND_INFERRED"),
          level: "info",
          message: `No scan of the label within ${refundReviewDays} days of its cancellation: the refund is taken as granted (USPS publishes no call that reads a dispute's outcome).`,
        },
      ],
    };
  }
  return { data: { status: "pending", reference }, messages: [] };
}
