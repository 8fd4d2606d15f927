import { describe, expect, it } from "vitest";
import { readScanCode } from "./scan-code";

describe("readScanCode", () => {
  it("keeps a reference as typed, without the scanner's control characters", () => {
    expect(readScanCode("  Order-1001\r\n")).toEqual({
      text: "Order-1001",
      trackingNumbers: ["ORDER-1001"],
      shipmentId: null,
    });
    expect(readScanCode("\u001dABC 123\u001d").text).toBe("ABC 123");
  });

  it("reads the tracking number out of a USPS IMpb barcode, with a 5- or 9-digit ZIP", () => {
    const tracking = "9400111899223397840327";
    expect(readScanCode(`42078701${tracking}`).trackingNumbers).toEqual([`42078701${tracking}`, tracking]);
    const nine = readScanCode(`420787011234${tracking}`).trackingNumbers;
    expect(nine).toContain(tracking);
    expect(nine[0]).toBe(`420787011234${tracking}`);
  });

  it("reads the 12-digit number at the end of a FedEx Express 34-digit barcode", () => {
    expect(readScanCode("1001901781990001000300617767839437").trackingNumbers).toEqual([
      "1001901781990001000300617767839437",
      "617767839437",
    ]);
    expect(readScanCode("100190178199000100030061776783943").trackingNumbers).toHaveLength(1);
  });

  it("upper-cases and joins a typed UPS number; offers nothing the API would refuse", () => {
    expect(readScanCode("1z 999 aa1 01 2345 6784").trackingNumbers).toEqual(["1Z999AA10123456784"]);
    expect(readScanCode("ab").trackingNumbers).toEqual([]);
    expect(readScanCode("a/b c?d").trackingNumbers).toEqual([]);
    expect(readScanCode("").trackingNumbers).toEqual([]);
  });

  it("knows a shipment id and nothing like one", () => {
    const id = `shp_${"a1".repeat(16)}`;
    expect(readScanCode(` ${id} `).shipmentId).toBe(id);
    expect(readScanCode(`shp_${"a1".repeat(15)}`).shipmentId).toBeNull();
    expect(readScanCode(`SHP_${"A1".repeat(16)}`).shipmentId).toBeNull();
  });
});
