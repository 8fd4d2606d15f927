// Creates or drops a scratch Postgres database (CI and the Postgres test run), or drops every database whose name
// starts with a prefix (the databases of an interrupted test run, test/global-setup.ts).
// Usage: create|drop|drop-prefix <admin-url> <name or prefix>
import postgres from "postgres";

const [action, url, name] = process.argv.slice(2);
if (!["create", "drop", "drop-prefix"].includes(action ?? "") || !url || !/^[a-z0-9_]+$/.test(name ?? "")) {
  console.error("usage: node scripts/pg-database.mjs create|drop|drop-prefix <admin-url> <name>");
  process.exit(2);
}
const sql = postgres(url, { max: action === "drop-prefix" ? 4 : 1, onnotice: () => {} });
const drop = (db) => sql.unsafe(`drop database if exists "${db}" with (force)`);
try {
  if (action === "create") await sql.unsafe(`create database "${name}"`);
  else if (action === "drop") await drop(name);
  else {
    const rows = await sql`select datname from pg_database where starts_with(datname, ${name})`;
    await Promise.all(rows.map((r) => drop(r.datname)));
  }
} finally {
  await sql.end();
}
