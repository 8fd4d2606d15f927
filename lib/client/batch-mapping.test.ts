import { describe, expect, it } from "vitest";
import { BATCH_FIELDS } from "@/lib/schemas/batch";
import { FIELD_GROUPS, mappingOf, prefillMapping, readHeaders } from "./batch-mapping";

describe("the batch mapping step", () => {
  it("names every field the API takes, once", () => {
    const named = FIELD_GROUPS.flatMap((g) => g.fields.map((f) => f.field));
    expect([...named].sort()).toEqual([...BATCH_FIELDS].sort());
  });

  it("prefills from the saved mapping where the file has the column, else by the API's own name rule", () => {
    const headers = ["Order", "Zip", "city", "weight", "Shoe"];
    const choice = prefillMapping(headers, {
      reference: "order",
      "recipient.postal_code": "Zip",
      "recipient.person_name": "Customer", // not in this file: left to the name rule, which finds nothing
    });
    expect(choice.reference).toBe("Order");
    expect(choice["recipient.postal_code"]).toBe("Zip");
    expect(choice["recipient.city"]).toBe("city");
    expect(choice["parcel.weight"]).toBe("weight");
    expect(choice["recipient.person_name"]).toBe("");
    expect(mappingOf(choice)).toEqual({
      reference: "Order",
      "recipient.postal_code": "Zip",
      "recipient.city": "city",
      "parcel.weight": "weight",
    });
  });

  it("reads the header row (comma or semicolon) and says why a file has none", async () => {
    expect(await readHeaders(new Blob(["a;b;c\n1;2;3\n"]))).toEqual({ headers: ["a", "b", "c"] });
    expect(await readHeaders(new Blob(['"Street, 1",city\nx,y\n']))).toEqual({ headers: ["Street, 1", "city"] });
    expect(await readHeaders(new Blob(["a,a\n"]))).toEqual({ problem: expect.stringMatching(/twice/) });
    expect(await readHeaders(new Blob(["\n1,2\n"]))).toEqual({ problem: expect.stringMatching(/no header/) });
  });
});
