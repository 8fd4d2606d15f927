/**
 * Where a mutation run's time goes (`npm run bench:mutation -- <timings file>`). Prints numbers; asserts nothing.
 *
 * Reads the lines test/mutation-timings.ts wrote during `MUTATION_TIMINGS=<file> npm run mutate …` and prints, per
 * room: the runner time of its mutants (two runners share the wall clock), split by what each mutant's run did —
 * killed by the first test file it ran, killed after other files ran first, survived (every file that reaches it
 * ran), static (every test of the room, modules reloaded) — then, per test file, what a run of it cost on average:
 * module imports, setup files, and its tests (hooks included). Runs that Stryker itself ended (its timeout, a crashed
 * runner) write no line, and Stryker's own time around each run is not in it: the room's minutes are a little more.
 * "In files before the killer" counts their imports, setup and tests, not the start of their workers (a lower bound).
 */
import { readFileSync } from "node:fs";

interface FileRun {
  file: string;
  state: string;
  prepare?: number;
  import: number;
  setup: number;
  tests: number;
}
interface Run {
  room?: string;
  mode: string;
  activation?: string;
  ms: number;
  files: FileRun[];
}

const path = process.argv[2];
if (!path) {
  console.error("usage: npm run bench:mutation -- <file written by MUTATION_TIMINGS=<file> npm run mutate>");
  process.exit(2);
}
const runs: Run[] = readFileSync(path, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Run);

/** What a mutant's run did, and the position of the file that killed it (-1: none did). */
function kind(run: Run): { name: string; killer: number } {
  const killer = run.files.findIndex((f) => f.state === "failed");
  if (run.activation === "static") return { name: "static (all tests)", killer };
  if (killer === -1) return { name: "survived (all files)", killer };
  return { name: killer === 0 ? "killed by the first file" : "killed after other files", killer };
}

const seconds = (ms: number) => (ms / 1000).toFixed(0);
const average = <T>(xs: T[], pick: (x: T) => number) => Math.round(xs.reduce((s, x) => s + pick(x), 0) / xs.length);
const rooms = [...new Set(runs.map((r) => r.room ?? "all"))];
for (const room of rooms) {
  const mine = runs.filter((r) => (r.room ?? "all") === room);
  const mutants = mine.filter((r) => r.mode === "mutant");
  const total = mutants.reduce((sum, r) => sum + r.ms, 0);
  const dry = mine.filter((r) => r.mode === "dry-run").reduce((sum, r) => sum + r.ms, 0);
  console.log(
    `\n${room}: ${mutants.length} mutant runs, ${seconds(total)} s of runner time (≈ ${(total / 2 / 60_000).toFixed(1)} min on 2 runners), dry run ${seconds(dry)} s`,
  );
  const kinds = new Map<string, { n: number; ms: number; files: number; before: number }>();
  for (const run of mutants) {
    const { name, killer } = kind(run);
    const k = kinds.get(name) ?? { n: 0, ms: 0, files: 0, before: 0 };
    k.n++;
    k.ms += run.ms;
    k.files += run.files.length;
    if (killer > 0) k.before += run.files.slice(0, killer).reduce((s, f) => s + f.import + f.setup + f.tests, 0);
    kinds.set(name, k);
  }
  console.table(
    [...kinds].map(([name, k]) => ({
      run: name,
      mutants: k.n,
      "runner s": Number(seconds(k.ms)),
      share: `${((100 * k.ms) / total).toFixed(1)} %`,
      "s per mutant": Number((k.ms / k.n / 1000).toFixed(2)),
      "files per mutant": Number((k.files / k.n).toFixed(1)),
      "s in files before the killer": Number(seconds(k.before)),
    })),
  );
  const perFile = new Map<string, FileRun[]>();
  for (const run of mutants) {
    for (const f of run.files) {
      const xs = perFile.get(f.file) ?? [];
      xs.push(f);
      perFile.set(f.file, xs);
    }
  }
  console.table(
    [...perFile]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([file, xs]) => ({
        file,
        runs: xs.length,
        "import ms": average(xs, (x) => x.import),
        "setup ms": average(xs, (x) => x.setup),
        "tests ms": average(xs, (x) => x.tests),
      })),
  );
  const single = mutants.filter((r) => r.files.length === 1 && r.activation !== "static");
  if (single.length > 0) {
    const [imp, setup, tests] = [
      average(single, (r) => r.files[0]!.import),
      average(single, (r) => r.files[0]!.setup),
      average(single, (r) => r.files[0]!.tests),
    ];
    const wall = average(single, (r) => r.ms);
    console.log(
      `a run of one file: ${wall} ms = worker start and the run's bookkeeping ${wall - imp - setup - tests} + imports ${imp} + setup files ${setup} + tests ${tests}`,
    );
  }
}
