import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { POST as createBatch } from "@/app/v1/batches/route";
import { GET as getBatch } from "@/app/v1/batches/[id]/route";
import { getDb } from "@/lib/db/client";
import { batchRows, batches } from "@/lib/db/schema";
import { call, makeOrg } from "./helpers";

const shipper = { address_line1: "1 Way", city: "Chicago", state_code: "IL", postal_code: "60607", country_code: "US" };
const header = "person_name,address_line1,city,state_code,postal_code,country_code,weight";

/** POST /v1/batches with the file as the request's body (`text/csv`), the options in their header. */
const postCsv = (key: string, csv: string) =>
  call(createBatch, "POST", "/v1/batches", {
    key,
    rawBody: csv,
    headers: { "Content-Type": "text/csv", "Shipwell-Options": JSON.stringify({ shipper }) },
  });

/** POST /v1/batches as a browser's form sends it. */
async function upload(key: string, bytes: Uint8Array, name = "orders.csv") {
  const form = new FormData();
  form.set("file", new Blob([Buffer.from(bytes)], { type: "text/csv" }), name);
  form.set("options", JSON.stringify({ shipper }));
  const req = new Request("http://localhost/v1/batches", {
    method: "POST",
    headers: { Authorization: `Token ${key}` },
    body: form,
  });
  const res = await createBatch(req, { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
}

const fileProblem = (body: { errors: { code: string; field: string | null; message: string }[] }) => {
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({ code: "validation_error", field: "file" });
  return body.errors[0]!.message;
};

describe("a CSV file's bytes Postgres cannot store", () => {
  it("a NUL byte in a row fails that row, stored without the NUL, and the other rows go on", async () => {
    const { key } = await makeOrg();
    const csv = `${header}\nAnn\u0000,1 Elm,Austin,TX,78701,US,1\nBob,2 Elm,Austin,TX,78701,US,1\n`;
    const res = await postCsv(key, csv);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.row_count).toBe(2);
    const id = res.body.id as string;
    const got = await call(getBatch, "GET", `/v1/batches/${id}`, { key, params: { id } });
    const rows = got.body.rows.results as { line: number; state: string; error: { code: string } | null }[];
    expect(rows.map((r) => [r.line, r.state === "failed" ? r.error!.code : "ok"])).toEqual([
      [2, "nul_byte"],
      [3, "ok"],
    ]);
    const [stored] = await (
      await getDb()
    )
      .select({ input: batchRows.input })
      .from(batchRows)
      .where(and(eq(batchRows.batchId, id), eq(batchRows.line, 2)));
    expect((stored!.input as Record<string, string>).person_name).toBe("Ann\uFFFD");
  });

  it("a UTF-16 file (Excel's Unicode Text) is a 400 saying to save it as UTF-8", async () => {
    const { key } = await makeOrg();
    const text = `${header}\nAnn,1 Elm,Austin,TX,78701,US,1\n`;
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const res = await upload(key, new Uint8Array(utf16));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(fileProblem(res.body)).toMatch(/UTF-16.*"CSV UTF-8"/);
  });

  it("a file name with a NUL is a 400, and a long one is cut to 200 characters", async () => {
    const { key, orgId } = await makeOrg();
    const bytes = new Uint8Array(Buffer.from(`${header}\nAnn,1 Elm,Austin,TX,78701,US,1\n`));
    // (A lone surrogate cannot come this way: the form's UTF-8 carries U+FFFD in its place.)
    const res = await upload(key, bytes, "or\u0000ders.csv");
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(fileProblem(res.body)).toBe("name must not contain a NUL character (\\u0000)");
    expect(await (await getDb()).select().from(batches).where(eq(batches.orgId, orgId))).toEqual([]);
    const long = await upload(key, bytes, `${"é".repeat(300)}.csv`);
    expect(long.status, JSON.stringify(long.body)).toBe(201);
    expect(long.body.filename).toBe("é".repeat(200));
  });
});

describe("a CSV file's size in columns and rows", () => {
  it("a 3 MB file of 300 long-named columns is a 400 naming the column limit", { timeout: 60_000 }, async () => {
    const { key } = await makeOrg();
    const extra = Array.from({ length: 293 }, (_, i) => `note_${i}_${"x".repeat(200)}`);
    const head = [...header.split(","), ...extra].join(",");
    const row = ["Ann", "1 Elm", "Austin", "TX", "78701", "US", "1", ...extra.map(() => "")].join(",");
    const csv = `${head}\n${Array.from({ length: 10_000 }, (_, i) => row.replace("Ann", `Ann ${i}`)).join("\n")}\n`;
    expect(csv.length).toBeLessThan(4 * 1024 * 1024);
    const res = await postCsv(key, csv);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(400);
    expect(fileProblem(res.body)).toMatch(/has 300 columns; a batch file takes up to 100/);
  });

  it("a column name over 100 characters is a 400 naming the limit", async () => {
    const { key } = await makeOrg();
    const res = await postCsv(key, `${header},${"n".repeat(101)}\nAnn,1 Elm,Austin,TX,78701,US,1,\n`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(fileProblem(res.body)).toMatch(/more than 100 characters/);
  });

  it("a file of a million short lines is refused with the 10 000-row limit", { timeout: 60_000 }, async () => {
    const { key } = await makeOrg();
    const res = await postCsv(key, `weight\n${"1\n".repeat(1_000_000)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      field: "file",
      message: "has more than 10000 rows; a batch takes up to 10000",
    });
  });
});

describe("CSV quoting", () => {
  it("a value opening a quote it does not close as a value refuses the file, naming its line", async () => {
    const { key } = await makeOrg();
    const lines = Array.from({ length: 8 }, (_, i) => `SO-${i},Ann ${i},${i + 1} Elm,Austin,TX,78701,US,1`);
    lines[2] = `SO-2,"The Loft" Ann,3 Elm,Austin,TX,78701,US,1`;
    const csv = `order_number,${header}\n${lines.join("\n")}\n`;
    const res = await call(createBatch, "POST", "/v1/batches", { key, body: { csv, shipper } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(fileProblem(res.body)).toMatch(/^Line 4 of the CSV file has a broken quote/);
  });

  it("takes quoted values with doubled quotes, commas and line breaks", async () => {
    const { key } = await makeOrg();
    const csv =
      `order_number,${header}\n` +
      `SO-1,"""The Loft"" Ann","1 Elm, Apt 2",Austin,TX,78701,US,1\n` +
      `SO-2,"Bob\nBack door",2 Elm,Austin,TX,78701,US,1\n` +
      `SO-3,Cy,3 Elm,Austin,TX,78701,US,1\n`;
    const res = await call(createBatch, "POST", "/v1/batches", { key, body: { csv, shipper } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.row_count).toBe(3);
    const rows = await (
      await getDb()
    )
      .select({ line: batchRows.line, input: batchRows.input })
      .from(batchRows)
      .where(eq(batchRows.batchId, res.body.id as string))
      .orderBy(batchRows.line);
    expect(rows.map((r) => [r.line, (r.input as Record<string, string>).person_name])).toEqual([
      [2, '"The Loft" Ann'],
      [3, "Bob\nBack door"],
      [5, "Cy"],
    ]);
  });
});
