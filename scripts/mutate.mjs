/**
 * `npm run mutate [room …] [-- stryker options]`: Stryker once per room of stryker.config.mjs (all rooms when none
 * is named), each against its own tests and incremental file. Prints each room's time and result; fails when any
 * room scores under the break threshold or cannot run.
 */
import { spawnSync } from "node:child_process";

const { rooms } = await import("../stryker.config.mjs");
const args = process.argv.slice(2);
const named = args.filter((a) => a in rooms);
const options = args.filter((a) => !(a in rooms));
const unknown = options.filter((a) => !a.startsWith("-") && !options[options.indexOf(a) - 1]?.startsWith("--"));
if (unknown.length > 0) {
  console.error(`Unknown room ${unknown.join(", ")}; rooms: ${Object.keys(rooms).join(", ")}`);
  process.exit(2);
}

const results = [];
for (const room of named.length > 0 ? named : Object.keys(rooms)) {
  const started = Date.now();
  const run = spawnSync("npx", ["stryker", "run", ...options], {
    stdio: "inherit",
    env: { ...process.env, MUTATION_ROOM: room, NEXT_TELEMETRY_DISABLED: "1" },
  });
  results.push({ room, minutes: ((Date.now() - started) / 60_000).toFixed(1), exit: run.status ?? run.signal });
}
console.table(results);
process.exit(results.every((r) => r.exit === 0) ? 0 : 1);
