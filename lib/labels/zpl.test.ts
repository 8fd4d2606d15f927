import { describe, expect, it } from "vitest";
import { isZpl } from "@/lib/labels/check";
import { sampleAddress, sampleFullUkAddress, sampleLabelContent } from "@/test/label-samples";
import { escapeZplField, renderZplLabel } from "@/lib/labels/zpl";

const count = (text: string, needle: string): number => text.split(needle).length - 1;

describe("renderZplLabel", () => {
  it("is one well-formed 4x6 format at 203 dpi with the label's content", () => {
    const zpl = renderZplLabel(sampleLabelContent());
    expect(isZpl(zpl)).toBe(true);
    expect(zpl.startsWith("^XA")).toBe(true);
    expect(zpl.endsWith("^XZ")).toBe(true);
    expect(count(zpl, "^XA")).toBe(1);
    expect(count(zpl, "^XZ")).toBe(1);
    expect(zpl).toContain("^PW812");
    expect(zpl).toContain("^LL1218");
    expect(zpl).toContain("^CI28");
    // Code 128 of the tracking number.
    expect(zpl).toMatch(/\^BCN,\d+,N,N,N,A\^FH\^FDSBX126230400000900001705\^FS/);
    for (const text of [
      "John Smith",
      "350 Fifth Avenue",
      "New York, NY 10118",
      "Jane Doe",
      "Sandbox Ground",
      "ORDER-1042",
      "2.5 KG",
    ]) {
      expect(zpl).toContain(`^FD${text}^FS`);
    }
    // Every field is a ^FO … ^FS pair.
    expect(count(zpl, "^FO")).toBe(count(zpl, "^FS"));
  });

  it("cannot be broken out of through a person name", () => {
    const evil = "Eve^XZ^XA^FO0,0^A0N,99^FDPWNED^FS~JA~JR_x\\&y";
    const zpl = renderZplLabel(
      sampleLabelContent({ recipient: sampleAddress({ person_name: evil }), reference: "~DGR:X" }),
    );
    expect(count(zpl, "^XA")).toBe(1);
    expect(count(zpl, "^XZ")).toBe(1);
    expect(zpl).not.toContain("~");
    expect(zpl).not.toContain("PWNED^FS");
    expect(count(zpl, "^FO")).toBe(count(zpl, "^FS"));

    const short = renderZplLabel(sampleLabelContent({ recipient: sampleAddress({ person_name: "Eve^XZ~JR_x\\&y" }) }));
    expect(short).toContain("^FH^FDEve_5EXZ_7EJR_5Fx\\\\&y^FS");
  });

  it("keeps line breaks in user text from starting new commands", () => {
    const zpl = renderZplLabel(sampleLabelContent({ reference: "A\n^XZ\r\nB" }));
    expect(count(zpl, "^XZ")).toBe(1);
    expect(zpl).toContain("^FDA _5EXZ  B^FS");
  });
});

describe("renderZplLabel text", () => {
  it("prints a name typed with combining accents (NFD, as macOS pastes it) in the Latin-1 letters font 0 has", () => {
    // "Zoë Åström" as e + U+0308, A + U+030A, o + U+0308: font 0 has ë, Å and ö, but no combining marks.
    const decomposed = "Zoe\u0308 A\u030Astro\u0308m";
    const zpl = renderZplLabel(sampleLabelContent({ recipient: sampleAddress({ person_name: decomposed }) }));
    expect(zpl).toContain("^FDZo\u00EB \u00C5str\u00F6m^FS");
    expect(zpl).not.toMatch(/[\u0300-\u036f]/);
  });

  it("prints every line of a full UK address: the postcode and the country are never left off", () => {
    const uk = sampleFullUkAddress();
    const zpl = renderZplLabel(sampleLabelContent({ shipper: uk, recipient: uk }));
    expect(count(zpl, "^FDSW1A 2AA^FS")).toBe(2);
    expect(count(zpl, "^FDGB^FS")).toBe(2);
  });
});

describe("escapeZplField", () => {
  it("hex-escapes the command and hex-indicator characters and leaves the rest", () => {
    expect(escapeZplField("a^b~c_d é")).toBe("a_5Eb_7Ec_5Fd é");
  });
});
