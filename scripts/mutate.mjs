/**
 * `npm run mutate [room …] [-- stryker options]`: Stryker once per room of stryker.config.mjs (all rooms when none
 * is named), each against its own tests and incremental file. A room whose mutated files and test files are all as
 * its incremental file recorded them is not run again: Stryker would re-test none of its mutants, and its dry run
 * alone takes a minute or more. Prints each room's score and time; fails when any room scores under the break
 * threshold or cannot run. `--force` runs and re-tests every room in full.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { globSync } from "tinyglobby";

const { rooms, default: config } = await import("../stryker.config.mjs");
const args = process.argv.slice(2);
const named = args.filter((a) => a in rooms);
const options = args.filter((a) => !(a in rooms));
const unknown = options.filter((a) => !a.startsWith("-") && !options[options.indexOf(a) - 1]?.startsWith("--"));
if (unknown.length > 0) {
  console.error(`Unknown room ${unknown.join(", ")}; rooms: ${Object.keys(rooms).join(", ")}`);
  process.exit(2);
}
const force = options.includes("--force");

/** The room's incremental file, when every file it mutates and every test file it runs is as recorded there. */
function unchanged(name, room) {
  const file = `mutation/${name}.json`;
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, "utf8"));
  const same = (recorded, patterns) => {
    const paths = globSync(patterns, { expandDirectories: false });
    return (
      paths.length === Object.keys(recorded).length &&
      paths.every((path) => recorded[path]?.source === readFileSync(path, "utf8"))
    );
  };
  return same(report.files, room.mutate) && same(report.testFiles, room.tests) ? report : undefined;
}

/** Killed and timed-out mutants are caught; the score is caught / (caught + survived + no coverage). */
function score(report) {
  const n = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 };
  for (const file of Object.values(report.files)) for (const m of file.mutants) if (m.status in n) n[m.status]++;
  const caught = n.Killed + n.Timeout;
  const total = caught + n.Survived + n.NoCoverage;
  return {
    mutants: total,
    killed: n.Killed,
    timeout: n.Timeout,
    survived: n.Survived,
    noCoverage: n.NoCoverage,
    score: total === 0 ? 100 : Math.floor((caught / total) * 1000) / 10,
  };
}

if (!process.env.DATABASE_URL) {
  console.error("Tip: DATABASE_URL=postgres://… npm run mutate runs the tests on PostgreSQL, about twice as fast.");
}
const results = [];
for (const name of named.length > 0 ? named : Object.keys(rooms)) {
  const started = Date.now();
  let report = force ? undefined : unchanged(name, rooms[name]);
  let run = "unchanged";
  if (!report) {
    const stryker = spawnSync("npx", ["stryker", "run", ...options], {
      stdio: "inherit",
      env: { ...process.env, MUTATION_ROOM: name, NEXT_TELEMETRY_DISABLED: "1" },
    });
    run = stryker.status === 0 ? "ran" : `exit ${stryker.status ?? stryker.signal}`;
    // Stryker rewrites the incremental file at the end of a run that got through; an older one is not this run's.
    const written = `mutation/${name}.json`;
    const fresh = existsSync(written) && statSync(written).mtimeMs >= started;
    report = fresh ? JSON.parse(readFileSync(written, "utf8")) : undefined;
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  results.push({ room: name, run, minutes, ...(report ? score(report) : {}) });
}
console.table(results);
const { break: floor } = config.thresholds;
const failing = results.filter((r) => r.score === undefined || r.score < floor);
if (failing.length > 0) {
  console.error(`Below ${floor} % or not measured: ${failing.map((r) => r.room).join(", ")}`);
  process.exit(1);
}
