import "server-only";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * PGlite is single-process: two processes opening the same folder would corrupt it. A pid file in the folder
 * makes the second opener (the CLI while the server runs, or a second server) refuse with a clear message.
 */
export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data folder ${dir} is in use by another process (pid ${pid}). ` +
        `Stop that process first (the server holds the folder while it runs), or point DATA_DIR elsewhere.`,
    );
    this.name = "DataDirInUseError";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function owner(file: string): number {
  try {
    return Number.parseInt(readFileSync(file, "utf8"), 10);
  } catch {
    return Number.NaN;
  }
}

export function lockDataDir(dir: string): () => void {
  const abs = resolve(dir);
  mkdirSync(abs, { recursive: true });
  const file = join(abs, "owner.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        process.removeListener("exit", release);
        // Only our own lock: after a takeover the file may name another process.
        if (owner(file) === process.pid) rmSync(file, { force: true });
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = owner(file);
      if (pid === process.pid) return () => {};
      if (Number.isFinite(pid) && alive(pid)) throw new DataDirInUseError(dir, pid);
      rmSync(file, { force: true }); // stale: its owner died without cleaning up
    }
  }
  throw new Error(`Could not lock the data folder ${dir}.`);
}
