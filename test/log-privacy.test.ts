import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { POST as createShipment } from "@/app/v1/shipments/route";
import { getDb } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { keepErrorsOutOfConsole, sendLogsTo } from "@/lib/log";
import { recordRetryPolicy } from "@/lib/shipments/record-retries";
import { addSandbox, createShipmentFor, purchaseFor, rateRequest } from "./factories";
import { call, makeOrg } from "./helpers";

// Values no other test uses, so the database faults below fire for these requests only (also on a shared Postgres).
const person = {
  person_name: "Zelda Privacyton",
  address_line1: "742 Evergreen Privacy Terrace",
  email: "zelda.privacyton@example.org",
  phone_number: "+1 555 0142 7788",
  federal_tax_id: "TAX-98-7654321",
};
const address = {
  ...person,
  city: "Austin",
  state_code: "TX",
  postal_code: "78701",
  country_code: "US",
};
const body = rateRequest({ shipper: address, recipient: address });
// Each value in the shapes code and databases turn it into: lower case (search text), digits only.
const traces = [
  ...Object.values(person).map((v) => v.toLowerCase()),
  ...[person.phone_number, person.federal_tax_id].map((v) => v.replace(/\D/g, "")),
];

let lines: string[] = [];
beforeAll(() => {
  process.env.LOG_LEVEL = "trace";
  resetEnvCache();
  sendLogsTo({ write: (line: string) => void lines.push(line) });
});
afterAll(() => {
  process.env.LOG_LEVEL = "silent";
  resetEnvCache();
});
afterEach(() => {
  lines = [];
});

/** Every log line written so far, parsed; and a check that none of them holds any of the person's data. */
function logged() {
  const text = lines.join("").toLowerCase();
  for (const value of traces) expect(text, `the log holds ${value}`).not.toContain(value);
  return lines.map((l) => JSON.parse(l) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A database fault installed for one test: `install` runs before, `remove` after, whatever happens. */
async function withFault<T>(install: string[], remove: string[], run: () => Promise<T>): Promise<T> {
  const db = await getDb();
  for (const statement of install) await db.execute(sql.raw(statement));
  try {
    return await run();
  } finally {
    for (const statement of remove) await db.execute(sql.raw(statement));
  }
}

// A PL/pgSQL function that fails the way a driver error quotes a value: casting it to a number.
const castFault = (name: string, table: string, when: string, value: string) => [
  `create or replace function ${name}() returns trigger language plpgsql as $$
   begin if ${when} then perform (${value})::integer; end if; return new; end $$`,
  `create trigger ${name} before insert or update on ${table} for each row execute function ${name}()`,
];
const dropFault = (name: string, table: string) => [
  `drop trigger if exists ${name} on ${table}`,
  `drop function if exists ${name}()`,
];

describe("logs keep no personal data", () => {
  it("when the database refuses a request's write (the failing row in the driver's detail)", async () => {
    const { key } = await makeOrg();
    const res = await withFault(
      [
        `alter table addresses add constraint log_privacy_check
         check (person_name is distinct from '${person.person_name}') not valid`,
      ],
      ["alter table addresses drop constraint if exists log_privacy_check"],
      () => call(createShipment, "POST", "/v1/shipments", { key, body }),
    );
    expect(res.status).toBe(500);
    const entry = logged().find((l) => l.msg === "unhandled error");
    expect(entry?.err).toMatchObject({ cause: { code: "23514", constraint: "log_privacy_check", table: "addresses" } });
  });

  it("when an idempotent answer cannot be recorded (the stored body in the statement's parameters)", async () => {
    const { key } = await makeOrg();
    const res = await withFault(
      castFault("log_privacy_idem", "idempotency_keys", "new.state = 'completed'", "new.response_sealed"),
      dropFault("log_privacy_idem", "idempotency_keys"),
      () =>
        call(createShipment, "POST", "/v1/shipments", { key, body, headers: { "Idempotency-Key": "log-privacy-1" } }),
    );
    expect(res.status).toBe(201); // the client still gets its answer
    const entry = logged().find((l) => l.msg?.startsWith("could not record the idempotent response"));
    expect(entry?.err).toMatchObject({ message: expect.stringMatching(/^Failed query/), cause: { code: "22P02" } });
  });

  it("when the carrier fails the purchase", async () => {
    const { key } = await makeOrg();
    await addSandbox(key, "failing", { fail_operations: ["ship"] });
    const shipment = await createShipmentFor(key, { shipper: address, recipient: address, carrier_ids: ["failing"] });
    const res = await purchaseFor(key, shipment);
    expect(res.status).toBe(424);
    const entry = logged().find((l) => l.msg === "carrier_operation" && l.operation === "ship");
    expect(entry).toMatchObject({ outcome: "error", codes: ["carrier_unavailable"] });
  });

  it("when a bought label cannot be recorded and is voided (the driver's message quoting the value)", async () => {
    const { key } = await makeOrg();
    const realDelays = recordRetryPolicy.delaysMs;
    recordRetryPolicy.delaysMs = [0, 0];
    try {
      const shipment = await createShipmentFor(key, { shipper: address, recipient: address });
      lines = [];
      const res = await withFault(
        castFault(
          "log_privacy_record",
          "shipments",
          "new.tracking_number is not null and new.search_text like '%privacyton%'",
          "new.search_text",
        ),
        dropFault("log_privacy_record", "shipments"),
        () => purchaseFor(key, shipment),
      );
      expect(res.status).toBe(500);
    } finally {
      recordRetryPolicy.delaysMs = realDelays;
    }
    const entries = logged();
    const retries = entries.filter((l) => l.msg === "recording a carrier outcome failed; retrying");
    expect(retries).toHaveLength(2);
    expect(retries[0]!.err.cause).toMatchObject({
      code: "22P02",
      message: 'invalid input syntax for type integer: "…"',
    });
    const voided = entries.find((l) => l.msg === "label voided because its purchase could not be recorded");
    expect(voided).toMatchObject({ cause: "not_recorded", err: { cause: { code: "22P02" } } });
  });
});

describe("errors Next.js prints with console.error", () => {
  it("are written by the log's serializer: no statement, no parameters, no personal data", () => {
    const undo = keepErrorsOutOfConsole();
    try {
      // What drizzle throws for a failed query, as Next.js hands a page's error to console.error.
      const err = Object.assign(
        new Error(`Failed query: select * from shipments where search @@ $1\nparams: ${person.email}`),
        { query: "select * from shipments where search @@ $1", params: [person.email] },
      );
      console.error(" ⨯", err);
      console.warn(`about "${person.person_name}"`, new Error(`bad value '${person.phone_number}'`));
    } finally {
      undo();
    }
    const [first, second] = logged();
    expect(first).toMatchObject({
      level: 50,
      msg: "⨯",
      err: { message: "Failed query (statement and parameters withheld)" },
    });
    expect(second).toMatchObject({ level: 40, msg: 'about "…"', err: { message: "bad value '…'" } });
  });

  it("leave calls without an error alone, and are put back by the undo", () => {
    const before = console.error;
    const undo = keepErrorsOutOfConsole();
    expect(console.error).not.toBe(before);
    undo();
    expect(console.error).toBe(before);
    expect(lines).toEqual([]);
  });
});
