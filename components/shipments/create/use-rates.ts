"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ApiProblem, apiFetch } from "@/lib/client/api";
import type { CreateLabelOutput } from "@/lib/client/create-label/form-schema";
import { ratesRequest } from "@/lib/client/create-label/form-values";
import type { Message } from "@/lib/schemas/message";
import type { Rate } from "@/lib/schemas/rate";

/** Rates as one rating answered them, and the form they were for (`ratingKey`): another form makes them stale. */
export interface Quote {
  key: string;
  rates: Rate[];
  messages: Message[];
  /**
   * The recipient's residential flag the rates were asked with: rates carry no classification of their own, so this
   * is what they assumed (compared with the carrier's verdict on the address).
   */
  recipientResidential: boolean;
}

interface RatesAnswer {
  rates: Rate[];
  messages: Message[];
}

/**
 * Rating through `POST /v1/proxy/rates`: nothing is stored, so editing and rating again leaves no drafts behind.
 * A newer rating cancels an older one still running, so the rates shown are always the last form's. A 424 (every
 * carrier failed) is a quote with no rates and the carriers' messages; other failures are thrown to the form.
 */
export function useRates() {
  const [quote, setQuote] = useState<Quote | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const running = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: ({ body, signal }: { body: unknown; signal: AbortSignal }) =>
      apiFetch<RatesAnswer>("/v1/proxy/rates", { method: "POST", body, signal }),
  });

  async function getRates(values: CreateLabelOutput, key: string): Promise<Quote | null> {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setFailure(null);
    try {
      const answer = await mutation.mutateAsync({ body: ratesRequest(values), signal: controller.signal });
      const recipientResidential = values.recipient.residential;
      const next = { key, rates: answer.rates, messages: answer.messages, recipientResidential };
      setQuote(next);
      return next;
    } catch (error) {
      if (controller.signal.aborted) return null;
      if (error instanceof ApiProblem && error.status === 424) {
        const next = { key, rates: [], messages: error.messages, recipientResidential: values.recipient.residential };
        setQuote(next);
        return next;
      }
      setQuote(null);
      setFailure(error);
      throw error;
    } finally {
      if (running.current === controller) running.current = null;
    }
  }

  return {
    quote,
    getRates,
    pending: mutation.isPending,
    /** Why the last rating gave nothing to show (network, 400, 404 carrier_not_found…), or null. */
    failure,
    /** The shown rates no longer hold (the carrier's price moved at purchase): rating again is required. */
    discard: () => setQuote((q) => (q ? { ...q, key: "" } : q)),
  };
}
