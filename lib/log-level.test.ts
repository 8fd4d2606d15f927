import { afterAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { log, sendLogsTo } from "@/lib/log";

// LOG_LEVEL is read by lib/env.ts; these say the logger really follows it (test/setup.ts sets "silent" for the suite).
const suiteLevel = process.env.LOG_LEVEL;

afterAll(() => {
  if (suiteLevel === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = suiteLevel;
  resetEnvCache();
  sendLogsTo({ write: () => {} });
});

/** The messages a fresh logger writes at each level with LOG_LEVEL as given (undefined: unset). */
function writtenWith(level: string | undefined): string[] {
  if (level === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = level;
  resetEnvCache();
  const lines: string[] = [];
  sendLogsTo({ write: (line: string) => void lines.push(line) });
  for (const at of ["trace", "debug", "info", "warn", "error", "fatal"] as const) log()[at]({ msg: at });
  return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe("LOG_LEVEL", () => {
  it("writes that level and the ones above it, nothing below", () => {
    expect(writtenWith("warn")).toEqual(["warn", "error", "fatal"]);
    expect(writtenWith("debug")).toEqual(["debug", "info", "warn", "error", "fatal"]);
    expect(writtenWith("trace")).toEqual(["trace", "debug", "info", "warn", "error", "fatal"]);
  });

  it("writes nothing when silent, and from info up when unset", () => {
    expect(writtenWith("silent")).toEqual([]);
    expect(writtenWith(undefined)).toEqual(["info", "warn", "error", "fatal"]);
  });

  it("refuses a level it does not know rather than logging at some default", () => {
    expect(() => writtenWith("verbose")).toThrow(/LOG_LEVEL/);
  });
});
