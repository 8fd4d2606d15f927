import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";

/**
 * Docs and comments that name a file of this repository name one that exists: a renamed or removed file, or a
 * document that lives elsewhere (a planning note, another machine's folder), fails here instead of misleading a
 * reader. Checked: the README, docs/, and every source file's text (paths appear in comments; code imports through
 * "@/", which is not matched).
 */
const FILES = globSync(
  ["README.md", "docs/**/*.md", "{lib,app,components,scripts,test,e2e,bench}/**/*.{ts,tsx,mts,mjs}", "*.{ts,mts,mjs}"],
  // This file names missing paths on purpose, in its own examples.
  { ignore: ["**/node_modules/**", "lib/carriers/*/generated/**", "test/fixtures/**", "test/doc-paths.test.ts"] },
);

const ROOTS = "lib|app|components|docs|scripts|test|e2e|bench|drizzle|public|mutation";
const REPO_PATH = new RegExp(`(?<![\\w./@-])((?:${ROOTS})/(?:[\\w.\\-/()]|\\[[\\w.]+\\])*)`, "g");
/** A Markdown document named without a folder ("dashboard.md §3"). */
const DOCUMENT = /(?<![\w./-])([\w-]+\.md)\b/g;

/** A path as written, without the sentence's punctuation or a Markdown link's brackets around it. */
function trimmed(path: string): string {
  let p = path;
  for (;;) {
    if (/[.,:;]$/.test(p)) p = p.slice(0, -1);
    else if (p.endsWith(")") && !/\([^)]*\)$/.test(p)) p = p.slice(0, -1);
    else if (p.endsWith("]") && !/\[[^\]]*\]$/.test(p)) p = p.slice(0, -1);
    else return p;
  }
}

/** Whether a path names something here: the file or folder, a module without its extension, a migration's prefix. */
function exists(path: string): boolean {
  if (["", ".ts", ".tsx", ".mts", ".mjs", ".md"].some((ext) => existsSync(path + ext))) return true;
  const slash = path.lastIndexOf("/");
  const folder = path.slice(0, slash);
  const name = path.slice(slash + 1);
  return /^\d{4}$/.test(name) && existsSync(folder) && readdirSync(folder).some((f) => f.startsWith(`${name}_`));
}

function repoPaths(text: string): string[] {
  return (
    [...text.matchAll(REPO_PATH)]
      // A pattern or placeholder (`app/v1/.../route.ts`, `mutation/<room>.json`, `lib/*/x`) names no one file.
      .filter((m) => !/[<*…{]|\.\.\./.test(text.slice(m.index, m.index + m[0].length + 1)))
      .map((m) => trimmed(m[1]!))
  );
}

const DOCUMENTS = new Set(globSync(["*.md", "docs/**/*.md", "test/**/*.md", "bench/**/*.md"]).map((f) => basename(f)));

describe("paths named in docs and comments", () => {
  it("reads paths out of prose, links and comments", () => {
    expect(repoPaths("see [the guide](docs/testing.md), lib/env and `app/(dashboard)/layout.tsx`.")).toEqual([
      "docs/testing.md",
      "lib/env",
      "app/(dashboard)/layout.tsx",
    ]);
    expect(
      repoPaths("imports @/lib/client/api, fetches /v1/shipments, app/v1/.../route.ts, mutation/<room>.json"),
    ).toEqual([]);
    expect(exists("lib/client/api")).toBe(true);
    expect(exists("drizzle/0000")).toBe(true);
    expect(exists("docs/dashboard.md")).toBe(false);
  });

  it("finds every repo path a doc or comment names", () => {
    const missing = FILES.flatMap((file) =>
      repoPaths(readFileSync(file, "utf8"))
        .filter((path) => !exists(path))
        .map((path) => `${file}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it("cites only documents that are in the repository", () => {
    const missing = FILES.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(DOCUMENT)]
        .map((m) => m[1]!)
        .filter((doc) => !DOCUMENTS.has(doc))
        .map((doc) => `${file}: ${doc}`),
    );
    expect(missing).toEqual([]);
  });
});
