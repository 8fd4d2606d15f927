"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { apiFetch } from "@/lib/client/api";
import { BuyError, buyLabel, type BuyResult } from "@/lib/client/create-label/buy-label";
import { buyFailure, type FailureView } from "@/lib/client/create-label/failures";
import type { ShipmentRequest } from "@/lib/client/create-label/form-schema";
import {
  attemptAfterFailure,
  attemptFor,
  newAttemptKey,
  type PurchaseAttempt,
} from "@/lib/client/create-label/purchase-attempt";
import type { Rate } from "@/lib/schemas/rate";

export type Bought = Extract<BuyResult, { kind: "bought" }>;
type PriceChanged = Extract<BuyResult, { kind: "price_changed" }>;
interface BuyInput {
  body: ShipmentRequest;
  chosen: Rate;
}

/**
 * "Buy label": one attempt per form (purchase-attempt.ts), and a lock taken in the same tick as the click, held until
 * the answer (and kept after a purchase, while the page moves on), so a second click, a second Enter or the shortcut
 * starts nothing. Even a request that slipped past the lock would carry the same key and buy nothing more.
 */
export function useBuyLabel({ onBought }: { onBought: (bought: Bought) => void }) {
  const attempt = useRef<PurchaseAttempt | null>(null);
  const locked = useRef(false);
  const last = useRef<BuyInput | null>(null);
  const [stage, setStage] = useState<"check" | "create" | "buy" | "done" | null>(null);
  const [priceChange, setPriceChange] = useState<PriceChanged | null>(null);
  const [failure, setFailure] = useState<FailureView | null>(null);

  const mutation = useMutation({
    mutationFn: async ({ body, chosen }: BuyInput) => {
      const current = attemptFor(attempt.current, JSON.stringify(body), newAttemptKey);
      attempt.current = current;
      try {
        return await buyLabel({
          api: apiFetch,
          attempt: current,
          body,
          chosen,
          onCreated: (shipment) => (current.shipment = shipment),
          onStage: setStage,
        });
      } catch (error) {
        if (error instanceof BuyError) attempt.current = attemptAfterFailure(current, error.stage, error.problem);
        throw error;
      }
    },
  });

  async function run(input: BuyInput): Promise<FailureView | null> {
    last.current = input;
    let bought = false;
    try {
      const result = await mutation.mutateAsync(input);
      if (result.kind === "bought") {
        bought = true;
        setStage("done");
        onBought(result);
      } else if (result.kind === "price_changed") {
        setPriceChange(result);
      } else {
        const text =
          "The carrier no longer offers this service for this shipment. Get rates again and choose another. Nothing was bought.";
        setFailure({ text, fields: [], other: [], messages: result.messages, shipmentId: null });
      }
      return null;
    } catch (error) {
      const view = error instanceof BuyError ? buyFailure(error) : buyFailure(new BuyError("create", error, null));
      setFailure(view);
      return view;
    } finally {
      if (!bought) {
        locked.current = false;
        setStage(null);
      }
    }
  }

  /**
   * Starts a purchase unless one is running. `prepare` checks the form and answers what to buy, or null (nothing to
   * buy: its problems are on the fields); it runs under the lock, so a double click cannot validate twice either.
   */
  async function buy(prepare: () => Promise<BuyInput | null>): Promise<FailureView | null> {
    if (locked.current) return null;
    locked.current = true;
    setStage("check");
    setFailure(null);
    const input = await prepare().catch(() => null);
    if (!input) {
      locked.current = false;
      setStage(null);
      return null;
    }
    return run(input);
  }

  /** The clerk accepted the carrier's new price: the same attempt buys the shipment's rate at that price. */
  async function acceptPrice(): Promise<FailureView | null> {
    const change = priceChange;
    if (!change || !attempt.current || !last.current || locked.current) return null;
    locked.current = true;
    attempt.current.acceptedRateId = change.rate.id;
    setPriceChange(null);
    setStage("buy");
    return run(last.current);
  }

  return {
    buy,
    acceptPrice,
    declinePrice: () => setPriceChange(null),
    /** What the button says it is doing; null when idle. */
    stage,
    busy: stage !== null,
    priceChange,
    failure,
    clearFailure: () => setFailure(null),
  };
}
