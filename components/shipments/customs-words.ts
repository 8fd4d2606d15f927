import type { CustomsContentType, DutyPayer, Incoterm } from "@/lib/carriers/types";

/** How the create form and the detail page name a customs declaration's choices. */
export const CONTENT_TYPE_WORDS: Record<CustomsContentType, string> = {
  merchandise: "Merchandise",
  gift: "Gift",
  sample: "Sample",
  documents: "Documents",
  return_merchandise: "Returned goods",
  other: "Other",
};

/** In the order offered: the three clerks choose between first, then terms agreed with a buyer. */
export const INCOTERM_WORDS: Record<Incoterm, string> = {
  DDU: "delivered duty unpaid",
  DAP: "delivered at place",
  DDP: "delivered duty paid",
  DPU: "delivered at place unloaded",
  DAT: "delivered at terminal",
  EXW: "ex works",
  FCA: "free carrier",
  CPT: "carriage paid to",
  CIP: "carriage and insurance paid to",
  FAS: "free alongside ship",
  FOB: "free on board",
  CFR: "cost and freight",
  CIF: "cost, insurance and freight",
};

export const DUTY_PAYER_WORDS: Record<DutyPayer, string> = {
  recipient: "Recipient",
  sender: "Sender",
  third_party: "Third party",
};
