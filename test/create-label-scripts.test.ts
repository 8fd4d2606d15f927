import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The create-label page loads zod (with the API's request schemas, ~30 kB gzipped) after itself: its form checks
 * come through a dynamic import (components/shipments/create/form-checks.ts). This walks the page's client modules'
 * static imports, as the bundler does, and names any path by which zod would come back with the page.
 */
const ROOT = resolve(__dirname, "..");
const FORM = join(ROOT, "components/shipments/create");

function resolveImport(spec: string, from: string): string | null {
  const base = spec.startsWith("@/")
    ? join(ROOT, spec.slice(2))
    : spec.startsWith(".")
      ? resolve(dirname(from), spec)
      : null;
  if (!base) return null;
  for (const ext of ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    if (existsSync(base + ext) && statSync(base + ext).isFile()) return base + ext;
  }
  return null;
}

/** Imports that stay in the bundle: not `import type`, not an import of types only, not a dynamic import(). */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const specs: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const typesOnly =
        clause && !clause.name && named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
      if (typesOnly) continue;
      specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      specs.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specs;
}

/** Each path from an entry to a module importing zod, as "a → b → zod". */
function pathsToZod(entries: string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, relative(ROOT, file)];
    for (const spec of valueImports(file)) {
      if (spec === "zod" || spec.startsWith("zod/") || spec === "@hookform/resolvers/zod") {
        found.push([...here, spec].join(" → "));
        continue;
      }
      const next = resolveImport(spec, file);
      if (next) walk(next, here);
    }
  };
  for (const entry of entries) walk(entry, []);
  return found;
}

describe("the create-label page's scripts", () => {
  it("leave zod to the form checks, loaded after the page", () => {
    const entries = readdirSync(FORM)
      .filter((f) => /\.tsx?$/.test(f) && !f.includes(".test."))
      .map((f) => join(FORM, f));
    expect(entries.length).toBeGreaterThan(10);
    expect(pathsToZod(entries)).toEqual([]);
  });

  it("finds zod where a static import brings it (the check can fail)", () => {
    expect(pathsToZod([join(ROOT, "lib/client/create-label/form-schema.ts")])).toContain(
      "lib/client/create-label/form-schema.ts → zod",
    );
  });
});
