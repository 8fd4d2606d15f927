import { describe, expect, it } from "vitest";
import { BatchCreate } from "@/lib/schemas/batch";
import { ApiProblem, untilAnswered } from "./api";
import {
  batchOptions,
  batchUpload,
  blankRule,
  NewBatchForm,
  newBatchDefaults,
  parseServiceChoice,
  pickOf,
  ratePolicyOf,
  serviceChoice,
  type NewBatchOutput,
  type NewBatchValues,
  type RuleValues,
  uploadAttempt,
} from "./batch-form";

const values = (v: Partial<NewBatchOutput>) =>
  ({ rate_policy: "cheapest", fixed_service: "", price_cap: null, price_cap_currency: "USD", ...v }) as NewBatchOutput;

describe("the new-batch form's rate policy", () => {
  it("sends a fixed carrier and service from one choice, and a cap only when given", () => {
    expect(ratePolicyOf(values({}))).toEqual({ kind: "cheapest" });
    expect(
      ratePolicyOf(values({ rate_policy: "fixed", fixed_service: serviceChoice("ups-main", "03"), price_cap: 12.5 })),
    ).toEqual({
      kind: "fixed",
      carrier_id: "ups-main",
      service: "03",
      price_cap: { amount: 12.5, currency: "USD" },
    });
    // A service left from a fixed choice is not sent with another kind.
    expect(ratePolicyOf(values({ rate_policy: "fastest", fixed_service: serviceChoice("a", "b") }))).toEqual({
      kind: "fastest",
    });
  });

  it("reads back only a whole choice", () => {
    expect(parseServiceChoice(serviceChoice("sandbox", "SBX_GROUND"))).toEqual({
      carrier_id: "sandbox",
      service: "SBX_GROUND",
    });
    for (const bad of ["", "x", "[]", '["a"]', '["", "b"]', "[1, 2]"]) expect(parseServiceChoice(bad)).toBeNull();
  });
});

const shipper = {
  person_name: "Ada Shipper",
  company_name: "",
  address_line1: "500 Industrial Way",
  address_line2: "",
  city: "Chicago",
  state_code: "IL",
  postal_code: "60607",
  country_code: "US",
  phone_number: "",
  email: "",
};

const form = (v: Partial<NewBatchValues>): NewBatchValues => ({
  ...newBatchDefaults(shipper as unknown as NewBatchValues["shipper"]),
  rate_policy: "rules",
  save_mapping: false,
  ...v,
});
const rule = (r: Partial<RuleValues>): RuleValues => ({ ...blankRule(), ...r });

/** Each problem's path and message, as the form places them. */
function problems(values: NewBatchValues) {
  const parsed = NewBatchForm.safeParse(values);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
}

describe("the new-batch form's rules", () => {
  it("sends only the conditions given, in the API's shape, which the API's own schema accepts", () => {
    const ground = serviceChoice("ups-main", "03");
    const values = form({
      rules: [
        rule({ weight_min: "20", weight_unit: "LB", pick: ground }),
        rule({ country_code: "ca", state_code: " qc ", postal_prefix: "h2x 1", pick: "fastest" }),
        rule({ value_min: "100,50", value_max: "", value_currency: "eur", weight_max: "2.5", pick: "cheapest" }),
      ],
      fallback: "fastest",
      price_cap: "40" as never,
    });
    const parsed = NewBatchForm.parse(values);
    const policy = ratePolicyOf(parsed);
    expect(policy).toEqual({
      kind: "rules",
      rules: [
        { weight: { min: 20, max: null, unit: "LB" }, pick: { kind: "fixed", carrier_id: "ups-main", service: "03" } },
        { destination: { country_code: "CA", state_code: "QC", postal_prefix: "H2X1" }, pick: { kind: "fastest" } },
        {
          weight: { min: null, max: 2.5, unit: "KG" },
          value: { min: 100.5, max: null, currency: "EUR" },
          pick: { kind: "cheapest" },
        },
      ],
      fallback: { kind: "fastest" },
      price_cap: { amount: 40, currency: "USD" },
    });
    const server = BatchCreate.safeParse({ csv: "a\n1\n", shipper, rate_policy: policy });
    expect(server.success, JSON.stringify(server.error?.issues)).toBe(true);
    expect(server.data?.rate_policy.rules).toHaveLength(3);
  });

  it("sends no rules with another policy, even when rules were made before the policy changed", () => {
    const parsed = NewBatchForm.parse(form({ rate_policy: "fastest", rules: [rule({})], fallback: "" }));
    expect(ratePolicyOf(parsed)).toEqual({ kind: "fastest" });
  });

  it("places each rule's problem on its field, with the rest of the form's problems", () => {
    const found = problems(
      form({
        price_cap: "abc",
        rules: [
          rule({ weight_min: "5", weight_max: "2", pick: "" }),
          rule({ weight_min: "heavy", state_code: "TX" }),
          rule({ value_max: "10", value_currency: "dollars", country_code: "USA" }),
          rule({}),
        ],
        fallback: "nonsense",
      }),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        ["price_cap", "must be an amount such as 25 or 12.50"],
        ["rules.0.weight_max", "must not be below the lower bound"],
        ["rules.0.pick", "Choose how these rows are priced."],
        ["rules.1.weight_min", "must be a number such as 2 or 0.5"],
        ["rules.1.country_code", "is needed for a state or a postal code"],
        ["rules.2.value_currency", "must be a three-letter currency code"],
        ["rules.2.country_code", "must be a two-letter country code"],
        [
          "rules.3.condition",
          "Give this rule a weight, a destination or a value: rows no rule matches take the fallback.",
        ],
        ["fallback", "Choose how rows no rule matches are priced."],
      ]),
    );
    expect(found).toHaveLength(9);
    expect(problems(form({ rules: [] }))).toEqual([["rules", "Add a rule, or choose another way to pick rates."]]);
    // Another policy: the rules left behind are not checked.
    expect(problems(form({ rate_policy: "cheapest", rules: [rule({ weight_min: "x" })] }))).toEqual([]);
  });

  it("reads a pick as a kind or a whole service choice", () => {
    expect(pickOf("cheapest")).toEqual({ kind: "cheapest" });
    expect(pickOf("fastest")).toEqual({ kind: "fastest" });
    expect(pickOf(serviceChoice("fx", "FEDEX_GROUND"))).toEqual({
      kind: "fixed",
      carrier_id: "fx",
      service: "FEDEX_GROUND",
    });
    for (const bad of ["", "fixed", "Cheapest", '["fx"]']) expect(pickOf(bad)).toBeNull();
  });
});

describe("the new-batch upload's idempotency key", () => {
  const file = { name: "orders.csv", size: 1234, lastModified: 1_700_000_000_000 };
  let n = 0;
  const newKey = () => `key-${++n}`;

  it("stays while the file and the options are the same, so a resubmit replays the first batch", () => {
    const first = uploadAttempt(null, file, "{}", newKey);
    expect(uploadAttempt(first, { ...file }, "{}", newKey)).toBe(first);
  });

  it("changes with another file, a changed file or other options", () => {
    const first = uploadAttempt(null, file, "{}", newKey);
    const others = [
      uploadAttempt(first, { ...file, name: "other.csv" }, "{}", newKey),
      uploadAttempt(first, { ...file, size: 1235 }, "{}", newKey),
      uploadAttempt(first, { ...file, lastModified: 1_700_000_000_001 }, "{}", newKey),
      uploadAttempt(first, file, '{"label_type":"ZPL"}', newKey),
    ];
    expect(new Set([first.key, ...others.map((o) => o.key)]).size).toBe(5);
  });

  it("sends the options as built, with the file under its own name", async () => {
    const chosen = new File(["a,b\n1,2\n"], "orders.csv", { type: "text/csv" });
    const options = batchOptions(chosen, values({ label_type: "ZPL", columns: [], shipper: {} } as never));
    expect(JSON.parse(options)).toMatchObject({ filename: "orders.csv", label_type: "ZPL" });
    const form = batchUpload(chosen, options);
    expect(form.get("options")).toBe(options);
    expect((form.get("file") as File).name).toBe("orders.csv");
  });

  it("waits while the server still works on the key's first sending, then takes its answer", async () => {
    const busy = new ApiProblem(409, [{ code: "idempotency_in_progress", message: "", field: null }], [], null);
    const answers: unknown[] = [busy, busy, { id: "bat_1" }];
    const slept: number[] = [];
    const batch = await untilAnswered(
      async () => {
        const next = answers.shift();
        if (next instanceof Error) throw next;
        return next;
      },
      async (ms) => void slept.push(ms),
    );
    expect(batch).toEqual({ id: "bat_1" });
    expect(slept).toEqual([1000, 1000]);
    // Any other refusal is the answer at once.
    const conflict = new ApiProblem(409, [{ code: "state_conflict", message: "", field: null }], [], null);
    await expect(
      untilAnswered(
        () => Promise.reject(conflict),
        async () => undefined,
      ),
    ).rejects.toBe(conflict);
  });
});
