import { describe, expect, it } from "vitest";
import {
  AddConnectionForm,
  addConnectionValues,
  connectionFieldNames,
  connectionFields,
  createBody,
  editConnectionValues,
  updateBody,
} from "./connection-form";
import type { CarrierDeclaration } from "@/lib/schemas/carrier";
import type { Connection } from "@/lib/schemas/connection";

const ups = {
  carrier_name: "ups",
  credentials_schema: {
    type: "object",
    properties: {
      client_id: { type: "string" },
      client_secret: { type: "string", writeOnly: true },
    },
    required: ["client_id", "client_secret"],
  },
  config_schema: {
    type: "object",
    properties: { negotiated_rates: { type: "boolean" }, label_stock: { type: "string", enum: ["4x6", "letter"] } },
  },
} as unknown as CarrierDeclaration;

const stored = {
  id: "car_1",
  display_name: "UPS main",
  config: { negotiated_rates: true, deadline_ms: 9000, fail_operations: ["ship"] },
} as unknown as Connection;

describe("the connection dialogs' forms", () => {
  it("names every field the API's problems can land on, each group's under its own name", () => {
    const names = connectionFieldNames(connectionFields(ups), ["carrier_id"]);
    expect(names).toEqual(
      expect.arrayContaining(["carrier_id", "credentials.client_id", "config.label_stock", "config.deadline_ms"]),
    );
    expect(names).not.toContain("credentials");
  });

  it("sends a new connection's typed fields only, as the API takes them", () => {
    const fields = connectionFields(ups);
    const values = AddConnectionForm.parse({
      ...addConnectionValues("ups", fields),
      carrier_id: "ups-main",
      test_mode: "live",
      credentials: { client_id: " id ", client_secret: " s3cret " },
      config: { ...addConnectionValues("ups", fields).config, negotiated_rates: "false", deadline_ms: "5000" },
    });
    expect(createBody(values, fields)).toEqual({
      carrier_name: "ups",
      carrier_id: "ups-main",
      display_name: null,
      test_mode: false,
      credentials: { client_id: "id", client_secret: " s3cret " },
      config: { negotiated_rates: false, deadline_ms: 5000 },
    });
  });

  it("edits the shown settings, keeps the hidden ones, and sends credentials only when typed", () => {
    const fields = connectionFields(ups);
    const start = editConnectionValues(stored, fields);
    expect(start.config).toMatchObject({ negotiated_rates: "true", deadline_ms: "9000", label_stock: "" });
    expect(start.credentials).toEqual({ client_id: "", client_secret: "" });
    const untouched = updateBody({ ...start, config: { ...start.config, deadline_ms: "" } }, fields, stored);
    expect(untouched).toEqual({
      display_name: "UPS main",
      config: { fail_operations: ["ship"], negotiated_rates: true },
    });
    const typed = updateBody({ ...start, credentials: { client_id: "new", client_secret: "x" } }, fields, stored);
    expect(typed.credentials).toEqual({ client_id: "new", client_secret: "x" });
  });
});
