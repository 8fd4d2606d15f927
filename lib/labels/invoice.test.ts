import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { Customs } from "@/lib/carriers/types";
import { renderCommercialInvoice, type InvoiceContent } from "@/lib/labels/invoice";
import { printsAtActualSize } from "@/lib/labels/print-ready";
import { fedexCustoms } from "@/test/fedex-context";
import { sampleAddress } from "@/test/label-samples";
import { pdfPageLines } from "@/test/pdf-text";

/** Each page's text, one line per text object. */
async function pagesText(bytes: Uint8Array): Promise<string[]> {
  return (await pdfPageLines(bytes)).map((lines) => lines.join("\n"));
}

function invoice(overrides: Partial<Customs> = {}, content: Partial<InvoiceContent> = {}): InvoiceContent {
  return {
    carrierName: "Sandbox",
    serviceName: "Sandbox International",
    trackingNumber: "SBX126230400000900001705",
    shipper: sampleAddress(),
    recipient: sampleAddress({
      person_name: "Hans Meier",
      city: "Berlin",
      postal_code: "10115",
      state_code: "",
      country_code: "DE",
    }),
    customs: fedexCustoms(overrides),
    date: "2024-03-04",
    reference: "ORDER-7",
    footerText: "SANDBOX TEST DOCUMENT",
    ...content,
  };
}

describe("renderCommercialInvoice", () => {
  it("a Letter page that prints at actual size, with what customs read on an invoice", async () => {
    const bytes = await renderCommercialInvoice(invoice());
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    expect(await printsAtActualSize(doc)).toBe(true);
    const [page] = await pagesText(bytes);
    for (const text of [
      "COMMERCIAL INVOICE",
      "INV-2024-0042",
      "SBX126230400000900001705",
      "Hans Meier",
      "Loose leaf green tea",
      "090210",
      "12.50 USD",
      // 4 × 12.50 + 1 × 70
      "50.00 USD",
      "120.00 USD",
      "DDP",
      "Sale",
      "Shipper",
      "NOEEI 30.37(a)",
      "Signed: Ada Shipper",
      "SANDBOX TEST DOCUMENT",
    ]) {
      expect(page).toContain(text);
    }
  });

  it("each party's tax registrations by name, the old federal_tax_id too, and what to do if undeliverable", async () => {
    const content = invoice({
      non_delivery: "abandon",
      tax_registrations: {
        shipper: [{ type: "ioss", number: "IM2760000742", issuing_country: null }],
        recipient: [{ type: "eori", number: "DE123456789012345", issuing_country: null }],
      },
    });
    const [page] = await pagesText(
      await renderCommercialInvoice({ ...content, shipper: { ...content.shipper, federal_tax_id: "12-3456789" } }),
    );
    for (const text of ["IOSS IM2760000742", "EIN 12-3456789", "EORI DE123456789012345", "Abandon"]) {
      expect(page).toContain(text);
    }
  });

  it("without an invoice number, the client's reference; without certification, no declaration", async () => {
    const [page] = await pagesText(await renderCommercialInvoice(invoice({ invoice: null, certify: false })));
    expect(page).toContain("ORDER-7");
    expect(page).not.toContain("Signed: Ada Shipper");
  });

  it("many lines run onto further pages, each with the table's header; any script prints as given", async () => {
    const line = fedexCustoms().commodities[0]!;
    const commodities = Array.from({ length: 60 }, (_, i) => ({ ...line, description: `Item ${i + 1} 東京 Łódź` }));
    const pages = await pagesText(await renderCommercialInvoice(invoice({ commodities })));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.every((p) => p.includes("HS code"))).toBe(true);
    expect(pages.at(-1)).toContain("Item 60 東京 Łódź");
    expect(pages.join("")).toContain(`${(60 * 4 * 12.5).toFixed(2)} USD`);
  });

  it("wraps a description without spaces (Chinese, a long part number) onto lines rather than cutting it", async () => {
    // Customs read the description: a 200-character one is allowed, and Chinese puts no spaces between words.
    const chinese = "儿童益智塑料拼插积木玩具套装共计一百二十片适用于三岁以上儿童使用不含电池";
    const partNumber = "SKU-" + "0123456789ABCDEF".repeat(4);
    const line = fedexCustoms().commodities[0]!;
    const commodities = [
      { ...line, description: chinese },
      { ...line, description: partNumber },
    ];
    const [page] = await pagesText(await renderCommercialInvoice(invoice({ commodities })));
    const lines = page!.split("\n");
    expect(lines.some((l) => l.endsWith("..."))).toBe(false);
    // Every character of both descriptions is on the page, in order, across the lines they wrap onto.
    expect(lines.join("")).toContain(chinese);
    expect(lines.join("")).toContain(partNumber);
  });

  it("prints a long street and company of exporter and consignee whole, wrapped in their column", async () => {
    const street = "1234 Exceptionally Long Boulevard Northwest, Building C Unit";
    const company = "Internationale Handelsgesellschaft für Maschinenbau GmbH & Co. KG";
    const party = sampleAddress({ address_line1: street, company_name: company });
    const [page] = await pagesText(await renderCommercialInvoice(invoice({}, { shipper: party, recipient: party })));
    const lines = page!.split("\n");
    expect(lines.some((l) => l.endsWith("..."))).toBe(false);
    for (const word of [...street.split(" "), ...company.split(" ")]) expect(page).toContain(word);
  });
});
