import type { PDFPage } from "pdf-lib";
import { taxRegistrations } from "@/lib/carriers/tax-registrations";
import type { Address, Customs, NonDelivery, TaxParty, TaxRegistrationType } from "@/lib/carriers/types";
import { addressLines, singleLine } from "@/lib/labels/content";
import { pdfText, type PdfText } from "@/lib/labels/fonts";
import { pdfLib } from "@/lib/labels/pdf-lib";
import { printAtActualSize } from "@/lib/labels/print-ready";

/**
 * A commercial invoice on Letter paper, drawn from a customs declaration: what an in-process carrier (the sandbox)
 * hands out beside the label, and what the emulators answer for UPS's and FedEx's printed invoices. It holds what
 * customs read on one: exporter and consignee, invoice number and date, the waybill, one line per commodity (HS code,
 * origin, quantity, unit and line value, weight), the total, terms of sale, reason for export, who pays duties, the
 * export filing, and the declaration with its signer when the shipper certified.
 */

export interface InvoiceContent {
  carrierName: string;
  serviceName: string;
  trackingNumber: string;
  shipper: Address;
  recipient: Address;
  customs: Customs;
  /** `YYYY-MM-DD`: the declaration's invoice date, else the ship date. */
  date: string;
  /** The client's reference, printed when the declaration has no invoice number. */
  reference: string | null;
  /** e.g. "SANDBOX TEST DOCUMENT - NOT VALID FOR CUSTOMS". */
  footerText?: string | null;
}

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 48;
const LINE = 13;
const SIZE = 9;

const REASONS: Record<Customs["content_type"], string> = {
  merchandise: "Sale",
  documents: "Documents",
  gift: "Gift",
  sample: "Sample",
  return_merchandise: "Return",
  other: "Other",
};

const PAYERS: Record<Customs["duty"]["paid_by"], string> = {
  sender: "Shipper",
  recipient: "Receiver",
  third_party: "Third party",
};

/** How an invoice names each kind of registration. */
const REGISTRATION_NAMES: ReadonlyMap<TaxRegistrationType, string> = new Map<TaxRegistrationType, string>([
  ["ein", "EIN"],
  ["vat", "VAT"],
  ["eori", "EORI"],
  ["ioss", "IOSS"],
  ["cpf", "CPF"],
  ["cnpj", "CNPJ"],
  ["abn", "ABN"],
  ["gst", "GST"],
  ["other", "Tax id"],
]);

const NON_DELIVERY: ReadonlyMap<NonDelivery, string> = new Map<NonDelivery, string>([
  ["return", "Return to shipper"],
  ["abandon", "Abandon"],
]);

/** Columns of the goods table: left edge and width in points, right-aligned for figures. */
const COLUMNS = [
  { title: "Description", x: MARGIN, width: 176, right: false },
  { title: "HS code", x: 228, width: 60, right: false },
  { title: "Origin", x: 292, width: 36, right: false },
  { title: "Qty", x: 330, width: 34, right: true },
  { title: "Unit value", x: 368, width: 66, right: true },
  { title: "Total", x: 438, width: 66, right: true },
  { title: "Weight", x: 508, width: 56, right: true },
] as const;

const amount = (n: number) => n.toFixed(2);

/** Text that fits `width` at `size`, cut with an ellipsis when it does not. */
function fitted(fonts: PdfText, bold: boolean, text: string, size: number, width: number): string {
  let value = Array.from(singleLine(text));
  if (fonts.widthOf(value.join(""), size, bold) <= width) return value.join("");
  while (value.length > 1 && fonts.widthOf(`${value.join("")}...`, size, bold) > width) value = value.slice(0, -1);
  return `${value.join("")}...`;
}

/**
 * Words broken into lines no wider than `width`; a word wider than a line alone (Chinese puts no spaces between
 * words, a part number has none) is broken between its characters rather than cut.
 */
function wrapped(fonts: PdfText, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  const fits = (s: string) => fonts.widthOf(s, size) <= width;
  for (const word of singleLine(text).split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (fits(next)) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    for (const ch of word) {
      if (line && !fits(line + ch)) {
        lines.push(line);
        line = "";
      }
      line += ch;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export async function renderCommercialInvoice(content: InvoiceContent): Promise<Uint8Array> {
  const { PDFDocument, rgb } = await pdfLib();
  const { customs } = content;
  const doc = await PDFDocument.create();
  doc.setTitle(`Commercial invoice ${content.trackingNumber}`);
  doc.setProducer("shipwell");
  doc.setCreator("shipwell");
  // The date the invoice bears, so the same declaration draws the same file.
  const date = new Date(`${content.date}T00:00:00Z`);
  if (!Number.isNaN(date.getTime())) {
    doc.setCreationDate(date);
    doc.setModificationDate(date);
  }
  await printAtActualSize(doc);
  const fonts = await pdfText(doc, JSON.stringify(content));
  const grey = rgb(0.4, 0.4, 0.4);

  let page: PDFPage = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  let y = PAGE_HEIGHT - MARGIN;
  const text = (
    value: string,
    x: number,
    opts: { bold?: boolean; size?: number; width?: number; right?: boolean } = {},
  ) => {
    const bold = opts.bold ?? false;
    const size = opts.size ?? SIZE;
    const shown = fitted(fonts, bold, value, size, opts.width ?? PAGE_WIDTH - MARGIN - x);
    const dx = opts.right && opts.width ? opts.width - fonts.widthOf(shown, size, bold) : 0;
    fonts.draw(page, shown, { x: x + dx, y, size, bold });
  };
  const rule = () => {
    page.drawLine({
      start: { x: MARGIN, y: y + LINE - 4 },
      end: { x: PAGE_WIDTH - MARGIN, y: y + LINE - 4 },
      thickness: 0.5,
      color: grey,
    });
  };
  const tableHeader = () => {
    for (const c of COLUMNS) text(c.title, c.x, { bold: true, width: c.width, right: c.right });
    y -= LINE;
    rule();
  };
  /** Room for `lines` more lines on this page, else a new page (with the table's header when inside it). */
  const room = (lines: number, inTable = false) => {
    if (y - lines * LINE >= MARGIN + LINE) return;
    page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    y = PAGE_HEIGHT - MARGIN;
    if (inTable) tableHeader();
  };

  text("COMMERCIAL INVOICE", MARGIN, { bold: true, size: 16 });
  y -= LINE * 2;
  const invoiceNumber = customs.invoice ?? content.reference;
  const facts: [string, string][] = [
    ["Invoice number", invoiceNumber ?? "-"],
    ["Invoice date", customs.invoice_date ?? content.date],
    ["Waybill", content.trackingNumber],
    ["Carrier", `${content.carrierName}, ${content.serviceName}`],
  ];
  for (const [label, value] of facts) {
    text(label, MARGIN, { bold: true, width: 100 });
    text(value, MARGIN + 104);
    y -= LINE;
  }
  y -= LINE;

  const half = (PAGE_WIDTH - 2 * MARGIN) / 2;
  const parties: [string, Address, TaxParty][] = [
    ["Shipper / exporter", content.shipper, "shipper"],
    ["Consignee", content.recipient, "recipient"],
  ];
  const blocks = parties.map(([title, a, party]) => [
    title,
    // Wrapped in the column rather than cut: customs read the whole address.
    ...[
      ...addressLines(a),
      ...(a.phone_number ? [`Phone ${a.phone_number}`] : []),
      ...taxRegistrations(content, party).map((r) => `${REGISTRATION_NAMES.get(r.type) ?? "Tax id"} ${r.number}`),
    ].flatMap((line) => wrapped(fonts, line, SIZE, half - 8)),
  ]);
  const rows = Math.max(...blocks.map((b) => b.length));
  for (let i = 0; i < rows; i++) {
    blocks.forEach((b, col) => {
      if (b[i]) text(b[i]!, MARGIN + col * half, { bold: i === 0, width: half - 8 });
    });
    y -= LINE;
  }
  y -= LINE;

  tableHeader();
  const currency = customs.duty.currency ?? customs.commodities[0]?.value_currency ?? "USD";
  let total = 0;
  for (const c of customs.commodities) {
    const description = wrapped(fonts, c.description, SIZE, COLUMNS[0].width);
    room(description.length, true);
    const lineTotal = c.quantity * c.value_amount;
    total += lineTotal;
    const cells = [
      c.hs_code ?? "",
      c.origin_country.toUpperCase(),
      String(c.quantity),
      `${amount(c.value_amount)} ${c.value_currency}`,
      `${amount(lineTotal)} ${c.value_currency}`,
      `${Number((c.weight * c.quantity).toFixed(3))} ${c.weight_unit}`,
    ];
    cells.forEach((cell, i) => {
      const col = COLUMNS[i + 1]!;
      text(cell, col.x, { width: col.width, right: col.right });
    });
    for (const line of description) {
      text(line, COLUMNS[0].x, { width: COLUMNS[0].width });
      y -= LINE;
    }
  }
  if (customs.commodities.length === 0) {
    text(customs.content_description ?? REASONS[customs.content_type], MARGIN);
    y -= LINE;
  }
  rule();
  const declared = customs.commodities.length > 0 ? total : (customs.duty.declared_value ?? 0);
  text("Total value", COLUMNS[4].x - 40, { bold: true, width: 106 });
  text(`${amount(declared)} ${currency}`, COLUMNS[5].x, { bold: true, width: COLUMNS[5].width, right: true });
  y -= LINE * 2;

  room(6);
  const terms: [string, string | null][] = [
    ["Terms of sale", customs.incoterm],
    ["Reason for export", REASONS[customs.content_type]],
    ["Duties and taxes", PAYERS[customs.duty.paid_by]],
    ["Export filing", customs.aes ?? customs.eel_pfc],
    ["If undeliverable", customs.non_delivery ? NON_DELIVERY.get(customs.non_delivery)! : null],
    ["Contents", customs.content_description],
  ];
  for (const [label, value] of terms) {
    if (!value) continue;
    text(label, MARGIN, { bold: true, width: 100 });
    text(value, MARGIN + 104);
    y -= LINE;
  }
  if (customs.certify) {
    const statement = wrapped(
      fonts,
      "I declare that the information on this invoice is true and correct and that the contents and value of this shipment are as stated above.",
      SIZE,
      PAGE_WIDTH - 2 * MARGIN,
    );
    room(statement.length + 3);
    y -= LINE;
    for (const line of statement) {
      text(line, MARGIN);
      y -= LINE;
    }
    y -= LINE;
    text(`Signed: ${customs.signer ?? ""}`, MARGIN, { bold: true });
    y -= LINE;
  }
  if (content.footerText) {
    for (const p of doc.getPages()) {
      fonts.draw(p, fitted(fonts, true, content.footerText, SIZE, PAGE_WIDTH - 2 * MARGIN), {
        x: MARGIN,
        y: MARGIN / 2,
        size: SIZE,
        bold: true,
        color: grey,
      });
    }
  }
  // One label or invoice is a few dozen objects: written in one go. pdf-lib otherwise yields to a timer every 50
  // objects, which the embedded fonts' objects now reach, and a purchase waits a timer turn for nothing.
  return doc.save({ objectsPerTick: Infinity });
}
