import { describe, expect, it } from "vitest";
import { fieldsOf, objectFrom, valuesFrom } from "./schema-form";

const ups = {
  type: "object",
  properties: {
    client_id: { type: "string", minLength: 1, maxLength: 200 },
    client_secret: { type: "string", maxLength: 500, writeOnly: true },
    account_number: { type: "string" },
  },
  required: ["client_id", "client_secret", "account_number"],
};
const config = {
  type: "object",
  properties: {
    label_stock: { type: "string", enum: ["4x6", "letter"] },
    negotiated_rates: { type: "boolean" },
    latency_ms: { type: "integer", minimum: 0, maximum: 30000 },
    fail_operations: { type: "array", items: { type: "string" } },
  },
};

describe("schema form", () => {
  it("makes a masked field of a writeOnly string, selects of enums, and leaves arrays to the API", () => {
    expect(fieldsOf(ups).map((f) => [f.name, f.kind, f.required])).toEqual([
      ["client_id", "text", true],
      ["client_secret", "secret", true],
      ["account_number", "text", true],
    ]);
    const fields = fieldsOf(config);
    expect(fields.map((f) => [f.label, f.kind])).toEqual([
      ["Label stock", "select"],
      ["Negotiated rates", "boolean"],
      ["Latency ms", "integer"],
    ]);
    expect(fields[0]!.options).toEqual(["4x6", "letter"]);
    expect(fields[2]).toMatchObject({ min: 0, max: 30000 });
  });

  it("never prefills a secret, and sends numbers as numbers and empty fields not at all", () => {
    const fields = [...fieldsOf(ups), ...fieldsOf(config)];
    const values = valuesFrom(fields, { client_secret: "s3cret", client_id: "abc", latency_ms: 20 });
    expect(values.client_secret).toBe("");
    expect(values.latency_ms).toBe("20");
    expect(valuesFrom(fields, { negotiated_rates: true }).negotiated_rates).toBe("true");
    expect(objectFrom(fields, { ...values, client_id: " abc ", negotiated_rates: "false", latency_ms: "5x" })).toEqual({
      client_id: "abc",
      negotiated_rates: false,
      latency_ms: "5x",
    });
    expect(objectFrom(fields, { latency_ms: "250", label_stock: "letter" })).toEqual({
      latency_ms: 250,
      label_stock: "letter",
    });
  });
});
