import { describe, expect, it } from "vitest";
import { ApiProblem, SESSION_ENDED } from "./api";
import {
  ClientProblem,
  actionValue,
  fieldErrorText,
  fieldNames,
  formPath,
  formProblems,
  problemText,
  sessionEnded,
} from "./problems";

const problem = (status: number, errors: { field: string | null; message: string }[] = []) =>
  new ApiProblem(
    status,
    errors.map((e) => ({ code: "invalid", ...e })),
    [],
    null,
  );

describe("problems", () => {
  it("says the session ended for a 401, never the API's request for an API key", () => {
    const expired = problem(401, [{ field: null, message: "Provide an API key as `Authorization: Token <key>`." }]);
    expect(sessionEnded(expired)).toBe(true);
    expect(problemText(expired)).toBe(SESSION_ENDED);
    expect(formProblems(expired, ["name"])).toEqual({ fields: [], form: SESSION_ENDED });
    expect(sessionEnded(problem(403))).toBe(false);
    expect(sessionEnded(new TypeError("fetch failed"))).toBe(false);
  });

  it("names the network for a request that got no answer, and a wait for a 429", () => {
    expect(problemText(new TypeError("Failed to fetch"))).toBe("The server could not be reached. Try again.");
    expect(problemText(problem(429, [{ field: null, message: "Rate limit." }]))).toMatch(/^Too many requests/);
    expect(problemText(problem(409, [{ field: null, message: "Already voided." }]))).toBe("Already voided.");
  });

  it("shows the dashboard's own worded failures as they are, and no other error's message", () => {
    expect(problemText(new ClientProblem("Allow pop-ups."))).toBe("Allow pop-ups.");
    expect(problemText(new Error("relation does not exist"))).toBe("The server could not be reached. Try again.");
  });

  it("spells API paths as form paths", () => {
    expect(formPath("parcels[0].weight")).toBe("parcels.0.weight");
    expect(formPath("customs.commodities[12].hs_code")).toBe("customs.commodities.12.hs_code");
    expect(formPath("url")).toBe("url");
  });

  it("puts each field's first problem on it, and what no field shows above the form", () => {
    const error = problem(422, [
      { field: "url", message: "must be https" },
      { field: "url", message: "is too long" },
      { field: "enabled_events[2]", message: "is not an event type" },
      { field: "carrier_ids[0]", message: "is unknown" },
      { field: null, message: "Nothing was saved." },
    ]);
    expect(formProblems(error, ["url", "description", "enabled_events"])).toEqual({
      fields: [
        { name: "url", message: "must be https" },
        { name: "enabled_events", message: "is not an event type" },
      ],
      form: "carrier_ids[0] is unknown Nothing was saved.",
    });
  });

  it("picks the nearest field that holds a nested path", () => {
    const error = problem(400, [{ field: "parcels[0].weight", message: "must be positive" }]);
    expect(formProblems(error, ["parcels", "parcels.0.weight"]).fields).toEqual([
      { name: "parcels.0.weight", message: "must be positive" },
    ]);
    // A field whose name only starts like the path's is not its owner.
    expect(formProblems(error, ["parcel"]).fields).toEqual([]);
  });

  it("leaves the form-level sentence empty when every problem has its field, and fills it when none is listed", () => {
    expect(formProblems(problem(422, [{ field: "name", message: "must not be empty" }]), ["name"]).form).toBeNull();
    expect(formProblems(problem(500), ["name"])).toEqual({ fields: [], form: "The request failed (500)." });
  });

  it("lists a form's field paths, containers and leaves, for nested API paths to find", () => {
    const names = fieldNames({ url: "", parcels: [{ weight: "", unit: "LB" }], events: [], at: new Date(0) });
    expect(names).toEqual(["url", "parcels", "parcels.0", "parcels.0.weight", "parcels.0.unit", "events", "at"]);
    const error = problem(400, [{ field: "parcels[0].weight", message: "must be positive" }]);
    expect(formProblems(error, names).fields).toEqual([{ name: "parcels.0.weight", message: "must be positive" }]);
  });
});

describe("fieldErrorText", () => {
  it("reads the API's message as a sentence about the field", () => {
    expect(fieldErrorText("Postal code", "must not be empty")).toBe("Postal code must not be empty.");
    expect(fieldErrorText("Weight", "is required.")).toBe("Weight is required.");
  });

  it("keeps a carrier's own sentence", () => {
    expect(fieldErrorText("Postal code", "Invalid postal code 00000 for US.")).toBe(
      "Invalid postal code 00000 for US.",
    );
  });
});

describe("actionValue", () => {
  it("passes a server action's value and throws its refusal as the API would, field and all", () => {
    expect(actionValue({ ok: true, token: "t" })).toEqual({ ok: true, token: "t" });
    let thrown: unknown;
    try {
      actionValue<{ token: string }>({ ok: false, message: "is already a member", field: "email" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiProblem);
    expect(formProblems(thrown, ["email", "role"])).toEqual({
      fields: [{ name: "email", message: "is already a member" }],
      form: null,
    });
    expect(() => actionValue({ ok: false, message: "Only owners can do that." })).toThrow("Only owners can do that.");
  });
});
