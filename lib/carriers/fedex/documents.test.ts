import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { documentsOf, FEDEX_CONTENT_TYPES, isLabel } from "@/lib/carriers/fedex/documents";

/** ship-api.json's list of the files FedEx answers (LabelResponseVO.contentType), from the vendored spec. */
function specContentTypes(): string[] {
  const spec = JSON.parse(readFileSync("test/emulator/specs/fedex/ship-api.json", "utf8")) as {
    components: { schemas: { LabelResponseVO: { properties: { contentType: { enum: string[] } } } } };
  };
  return spec.components.schemas.LabelResponseVO.properties.contentType.enum;
}

const pdf = Buffer.from("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n").toString("base64");

describe("FedEx's documents", () => {
  it("every content type in FedEx's list is a label or a document type, and nothing else is claimed", () => {
    expect(Object.keys(FEDEX_CONTENT_TYPES).sort()).toEqual([...specContentTypes()].sort());
  });

  it("labels stay labels; every other kind becomes its document type under FedEx's name", () => {
    for (const [contentType, kind] of Object.entries(FEDEX_CONTENT_TYPES)) {
      const file = { contentType, docType: "PDF", encodedLabel: pdf };
      expect({ contentType, label: isLabel(file) }).toEqual({ contentType, label: kind === "label" });
      if (kind === "label") continue;
      expect(documentsOf([file]).documents).toMatchObject([{ type: kind, format: "PDF", name: contentType }]);
    }
    // A file without a content type is a piece's label, as FedEx answers them.
    expect(isLabel({ encodedLabel: pdf })).toBe(true);
  });

  it("a kind FedEx adds later is a label when its name says so, else a document kept as other", () => {
    expect(isLabel({ contentType: "THERMAL_LABEL" })).toBe(true);
    expect(documentsOf([{ contentType: "CUSTOMS_PACKING_LIST", encodedLabel: pdf }]).documents).toMatchObject([
      { type: "other", name: "CUSTOMS_PACKING_LIST" },
    ]);
  });

  it("a link instead of bytes, or bytes that are no file we know, is a warning, not a document", () => {
    const url = "https://wwwtest.fedex.com/document/v2/document/retrieve/SH,794953535000_CI";
    const { documents, messages } = documentsOf([
      { contentType: "COMMERCIAL_INVOICE", url },
      { contentType: "PROFORMA_INVOICE", encodedLabel: Buffer.from("not a pdf").toString("base64") },
    ]);
    expect(documents).toEqual([]);
    expect(messages).toEqual([
      expect.objectContaining({
        code: "FEDEX_DOCUMENT_NOT_KEPT",
        level: "warning",
        details: { content_type: "COMMERCIAL_INVOICE", url },
      }),
      expect.objectContaining({ code: "FEDEX_DOCUMENT_NOT_KEPT", details: { content_type: "PROFORMA_INVOICE" } }),
    ]);
  });
});
