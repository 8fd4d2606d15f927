import { expect } from "vitest";
import { CarrierError } from "@/lib/carriers/types";

/** For tests: the CarrierError a promise rejects with (and a failed assertion if it resolves or throws anything else). */
export async function rejection(promise: Promise<unknown>): Promise<CarrierError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierError);
  return error as CarrierError;
}
