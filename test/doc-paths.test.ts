import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, normalize } from "node:path";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";

/**
 * Docs and comments that name a file of this repository name one that exists: a renamed or removed file, or a
 * document that lives elsewhere (a planning note, another machine's folder), fails here instead of misleading a
 * reader. Nor do they name a folder of one machine, or a section (`§`) of a document that has none. Checked: the
 * README, the Markdown in docs/, test/, bench/ and assets/, every source file's text (paths appear in comments; code
 * imports through "@/", which is not matched), the stylesheets and the CI script.
 */
const FILES = globSync(
  [
    "README.md",
    "{docs,test,bench,assets}/**/*.md",
    "{lib,app,components,scripts,test,e2e,bench}/**/*.{ts,tsx,mts,mjs,css}",
    "*.{ts,mts,mjs,jsonc}",
    ".ci/run",
  ],
  // This file names missing paths on purpose, in its own examples.
  { ignore: ["**/node_modules/**", "lib/carriers/*/generated/**", "test/fixtures/**", "test/doc-paths.test.ts"] },
);

const ROOTS = "lib|app|components|docs|scripts|test|e2e|bench|drizzle|public|mutation|assets|\\.ci";
const REPO_PATH = new RegExp(`(?<![\\w./@-])((?:${ROOTS})/(?:[\\w.\\-/()]|\\[[\\w.]+\\])*)`, "g");
/** A Markdown document named without a folder ("dashboard.md §3"). */
const DOCUMENT = /(?<![\w./-])([\w-]+\.md)\b/g;

/**
 * A source file named without its folder ("proxy.ts", "rate-api.json"). JSON only in Markdown: in code `res.json`
 * is a call, not a file.
 */
const BARE_FILE = /(?<![\w./@$*-])([\w-]+(?:\.[\w-]+)*\.(?:ts|tsx|mts|mjs|jsonc|css|json))(?![\w/])/g;
const BASENAMES = new Set(
  globSync(["**/*"], { ignore: ["**/node_modules/**", ".next/**", ".git/**"], dot: true }).map((f) => basename(f)),
);

function bareFiles(text: string, markdown: boolean): string[] {
  return [...text.matchAll(BARE_FILE)].map((m) => m[1]!).filter((name) => markdown || !name.endsWith(".json"));
}

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

const MARKDOWN = globSync(["*.md", "docs/**/*.md", "test/**/*.md", "bench/**/*.md", "assets/**/*.md"]);
const DOCUMENTS = new Set(MARKDOWN.map((f) => basename(f)));

/** A folder of one machine: a home, the shared work folder, or a sibling checkout's `../shared`. */
const MACHINE_PATH = /(?<![\w.-])(?:\/work\/|\/home\/|\.\.\/shared\b)/g;

function machinePaths(text: string): string[] {
  return [...text.matchAll(MACHINE_PATH)].map((m) => m[0]);
}

/**
 * A section of a document ("carriers.md §1.4", "`docs/api.md` §2"), the `§` perhaps on the next line of the comment.
 */
const SECTION = /(?<![\w.-])([\w./-]*[\w-]\.md)[`\])]*(?:\s|\*|\/\/)*§/g;

function sections(text: string): string[] {
  return [...text.matchAll(SECTION)].map((m) => m[1]!);
}

/**
 * Whether `§` may follow a document cited from `file`: the document is here (by its path from the root or from the
 * citing file's folder, or by its name alone) and numbers its sections with `§` itself.
 */
function hasSections(doc: string, file: string): boolean {
  const candidates = doc.includes("/")
    ? [normalize(doc), normalize(join(dirname(file), doc))].filter((p) => !isAbsolute(p) && !p.startsWith(".."))
    : MARKDOWN.filter((f) => basename(f) === doc);
  return candidates.some((p) => existsSync(p) && readFileSync(p, "utf8").includes("§"));
}

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

  it("reads machine paths and cited sections out of prose", () => {
    expect(
      machinePaths("`/work/shared/x.yaml`, ../shared/carriers.md and /home/me/notes; lib/work/x, ../sharedx"),
    ).toEqual(["/work/", "../shared", "/home/"]);
    expect(
      sections("carriers.md §1.4, `docs/api.md` §2 and (docs/ups.md §3); a.md\n * §5; docs/api.md, Errors"),
    ).toEqual(["carriers.md", "docs/api.md", "docs/ups.md", "a.md"]);
    expect(hasSections("carriers.md", "lib/x.ts")).toBe(false);
    expect(hasSections("docs/api.md", "lib/x.ts")).toBe(false);
    expect(hasSections("/work/shared/carriers.md", "lib/x.ts")).toBe(false);
    // A file here with a `§` of its own passes, named from the root or from the citing file's folder.
    expect(hasSections("test/doc-paths.test.ts", "lib/x.ts")).toBe(true);
    expect(hasSections("./doc-paths.test.ts", "test/x.md")).toBe(true);
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

  it("reads file names without a folder out of prose and code", () => {
    expect(bareFiles("proxy.ts, `next.config.ts`, rate-api.json; res.json(), test/*-emulated.test.ts", true)).toEqual([
      "proxy.ts",
      "next.config.ts",
      "rate-api.json",
      "res.json",
    ]);
    expect(bareFiles("await res.json() and proxy2.ts", false)).toEqual(["proxy2.ts"]);
    expect(BASENAMES.has("proxy.ts") && BASENAMES.has("run") && !BASENAMES.has("proxy2.ts")).toBe(true);
  });

  it("names, without a folder, only files that are in the repository", () => {
    const missing = FILES.flatMap((file) =>
      bareFiles(readFileSync(file, "utf8"), file.endsWith(".md"))
        .filter((name) => !BASENAMES.has(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it("names no folder of one machine", () => {
    const found = FILES.flatMap((file) => machinePaths(readFileSync(file, "utf8")).map((path) => `${file}: ${path}`));
    expect(found).toEqual([]);
  });

  it("cites a section (§) only of a document here that has numbered sections", () => {
    const missing = FILES.flatMap((file) =>
      sections(readFileSync(file, "utf8"))
        .filter((doc) => !hasSections(doc, file))
        .map((doc) => `${file}: ${doc} §`),
    );
    expect(missing).toEqual([]);
  });
});
