import { describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { sql } from "drizzle-orm";
import { errorForLog } from "./log";

const NAME = 'Jane "JJ" O\'Privacy';

// One database for the file: an embedded Postgres takes seconds to start.
let people: Promise<ReturnType<typeof drizzle>> | undefined;
const quoted = `'${NAME.replace(/'/g, "''")}'`;

/** A real driver error, wrapped as drizzle wraps it, for a statement carrying `NAME`. */
async function driverError(statement: ReturnType<typeof sql>): Promise<unknown> {
  people ??= (async () => {
    const db = drizzle(new PGlite());
    await db.execute(sql`create table people (id int primary key, name text check (name <> ${sql.raw(quoted)}))`);
    return db;
  })();
  return (await people).execute(statement).then(
    () => expect.fail("the statement should fail"),
    (err: unknown) => err,
  );
}

describe("errors in the logs", () => {
  it("keep a driver error's SQLSTATE and names, never its statement, parameters, detail or quoted value", async () => {
    for (const statement of [sql`select ${NAME}::integer`, sql`insert into people values (1, ${NAME})`]) {
      const logged = errorForLog(await driverError(statement));
      const text = JSON.stringify(logged);
      expect(text).not.toMatch(/JJ|Privacy|Jane/);
      expect(logged.message).toBe("Failed query (statement and parameters withheld)");
      expect(logged.stack).toMatch(/^\w+: Failed query \(statement and parameters withheld\)\n\s+at /);
      const cause = logged.cause as Record<string, unknown>;
      expect(cause).toMatchObject({ type: "DatabaseError", severity: "ERROR", code: expect.stringMatching(/^\w{5}$/) });
      for (const key of ["detail", "where", "query", "params", "parameters", "internalQuery", "hint"]) {
        expect(cause, key).not.toHaveProperty(key);
      }
    }
    const violation = errorForLog(await driverError(sql`insert into people values (1, ${NAME})`));
    expect(violation.cause).toMatchObject({ code: "23514", table: "people", constraint: "people_name_check" });
  });

  it("scrub quoted literals from other messages and their stack, and follow causes", () => {
    let parseError: unknown;
    try {
      JSON.parse(NAME);
    } catch (err) {
      parseError = err;
    }
    const logged = errorForLog(new Error("could not record", { cause: parseError }));
    expect(JSON.stringify(logged)).not.toMatch(/JJ|Privacy|Jane/);
    expect(logged).toMatchObject({ type: "Error", message: "could not record", cause: { type: "SyntaxError" } });
    expect((logged.cause as { message: string }).message).toMatch(/^Unexpected token '…', "…" is not valid JSON$/);
  });

  it("keep our own codes, and drop properties nobody chose to log", () => {
    const err = Object.assign(new Error("The shipment is cancelled."), {
      code: "state_conflict",
      body: { person_name: NAME },
      response: `{"person_name": "${NAME}"}`,
    });
    const logged = errorForLog(err);
    expect(logged).toMatchObject({ type: "Error", code: "state_conflict", message: "The shipment is cancelled." });
    expect(Object.keys(logged).sort()).toEqual(["code", "message", "stack", "type"]);
    expect(errorForLog(`thrown text "${NAME}"`)).toEqual({ type: "string", message: 'thrown text "…"' });
  });
});
