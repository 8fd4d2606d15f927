import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CarrierMessages } from "@/components/carriers/carrier-messages";
import type { Message } from "@/lib/schemas/message";

const html = (messages: Message[]) => renderToStaticMarkup(createElement(CarrierMessages, { messages }));
/** What a reader gets: the markup's text, tags dropped. */
const text = (markup: string) => markup.replace(/<[^>]+>/g, "");

const ups = (level: Message["level"], code: string, message: string): Message => ({
  carrier_name: "ups",
  carrier_id: "ups-main",
  level,
  code,
  message,
  details: {},
});

describe("CarrierMessages", () => {
  it("shows nothing for no messages", () => {
    expect(html([])).toBe("");
  });

  it("names the carrier in each message of one connection, level in words, errors first", () => {
    const out = text(html([ups("info", "N1", "Saturday pickup."), ups("error", "E9", "Bad ZIP.")]));
    expect(out).toBe("Error from ups: Bad ZIP. (E9)Note from ups: Saturday pickup. (N1)");
  });

  it("groups the messages of several connections under each connection's name", () => {
    const markup = html([
      ups("warning", "W1", "Residential surcharge."),
      { carrier_name: "fedex", carrier_id: "fedex", level: "error", code: "F1", message: "Timed out.", details: {} },
    ]);
    expect(markup.match(/<h3/g)).toHaveLength(2);
    expect(text(markup)).toBe("ups · ups-mainWarning: Residential surcharge. (W1)fedexError: Timed out. (F1)");
  });
});
