import { CarrierError, carrierCode, type AdapterMessage } from "@/lib/carriers/types";
import { excerpt } from "@/lib/validation";

/**
 * The sandbox's refusals, with carrier-style codes (`SBX_…`) and messages, so the rest of the service handles
 * them exactly like a real carrier's errors. The layer's own codes (`carrier_unavailable`, `tracking_not_found`,
 * …) are used where a real adapter would map to them.
 */

/** A refusal in the sandbox's own words: its `SBX_…` code comes through as a real carrier's code would. */
export function sandboxRefusal(
  code: `SBX_${string}`,
  message: string,
  details: Record<string, unknown> = {},
): CarrierError {
  return new CarrierError(carrierCode(code), message, details);
}

export function invalidPostalCode(postalCode: string, countryCode: string, field: string): CarrierError {
  return sandboxRefusal("SBX_INVALID_POSTAL_CODE", `Invalid postal code ${postalCode} for ${countryCode}.`, {
    field,
    postal_code: postalCode,
    country_code: countryCode,
  });
}

export function weightOverLimit(parcelIndex: number, weightKg: number, limitKg: number): CarrierError {
  return sandboxRefusal(
    "SBX_WEIGHT_LIMIT_EXCEEDED",
    `Parcel ${parcelIndex + 1} weighs ${weightKg.toFixed(2)} kg, over the ${limitKg} kg limit per parcel.`,
    { field: `parcels[${parcelIndex}].weight`, weight_kg: Number(weightKg.toFixed(3)), limit_kg: limitKg },
  );
}

export function unknownService(code: string, valid: readonly string[]): CarrierError {
  // The codes are the client's: repeated as an excerpt, never whole.
  return sandboxRefusal(
    "SBX_UNKNOWN_SERVICE",
    `Unknown service code ${excerpt(code)}. Valid services: ${valid.join(", ")}.`,
    { field: "service", service: excerpt(code) },
  );
}

export function serviceNotAvailable(
  code: string,
  origin: string,
  destination: string,
  available: readonly string[],
): CarrierError {
  return sandboxRefusal(
    "SBX_SERVICE_NOT_AVAILABLE",
    `Service ${code} is not available from ${origin} to ${destination}. Available: ${available.join(", ")}.`,
    { field: "service", service: code, available },
  );
}

export function invalidOption(name: string, message: string): CarrierError {
  return sandboxRefusal("SBX_INVALID_OPTION", `Invalid option ${name}: ${message}`, { field: `options.${name}` });
}

export function trackingNotFound(trackingNumber: string): CarrierError {
  return new CarrierError("tracking_not_found", `Tracking number ${trackingNumber} was not found.`, {
    tracking_number: trackingNumber,
  });
}

export function shipmentMismatch(shipmentIdentifier: string, trackingNumber: string): CarrierError {
  return sandboxRefusal(
    "SBX_SHIPMENT_MISMATCH",
    `Shipment ${shipmentIdentifier} does not belong to tracking number ${trackingNumber}.`,
    { shipment_identifier: shipmentIdentifier, tracking_number: trackingNumber },
  );
}

export function voidNotAllowed(trackingNumber: string): CarrierError {
  return sandboxRefusal("SBX_VOID_NOT_ALLOWED", "Shipment has already been picked up and can no longer be voided.", {
    tracking_number: trackingNumber,
  });
}

/** Not a refusal: a void of a label voided before (its first answer was lost) succeeds, and says so. */
export function alreadyVoided(trackingNumber: string, voidedAt: Date): AdapterMessage {
  return {
    code: carrierCode("SBX_ALREADY_VOIDED"),
    level: "info",
    message: `Label ${trackingNumber} was already voided at ${voidedAt.toISOString()}.`,
    details: { tracking_number: trackingNumber, voided_at: voidedAt.toISOString() },
  };
}

export function authExpired(): CarrierError {
  return new CarrierError("carrier_auth_failed", "Authentication failed: the Sandbox API key has expired.", {
    carrier_code: "SBX_AUTH_EXPIRED",
  });
}

export function unavailable(operation: string, reason: "configured" | "random"): CarrierError {
  return new CarrierError("carrier_unavailable", "Sandbox service temporarily unavailable. Please try again later.", {
    operation,
    simulated: reason,
  });
}

/** Every serial tried for this second and route was taken: a real carrier's "try again" 503. */
export function numbersExhausted(): CarrierError {
  return new CarrierError("carrier_unavailable", "Sandbox could not issue a tracking number. Please try again.", {
    operation: "ship",
  });
}

export function rateLimited(retryAfterSeconds: number): CarrierError {
  return new CarrierError(
    "carrier_rate_limited",
    `Too many requests. Retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`,
    { retry_after_seconds: retryAfterSeconds },
  );
}
