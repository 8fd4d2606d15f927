import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The house plan's import rules (docs/architecture.md, "Rules") are lint rules: a change that breaks one fails
 * `npm run lint`. Each case lints one import as if it were written in that file.
 */
const eslint = new ESLint();

async function importProblems(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("import rules", () => {
  it.each([
    ["app/v1/shipments/route.ts", 'import { x } from "@/lib/db/client";', /Routes never import the database/],
    ["app/v1/shipments/route.ts", 'import { x } from "drizzle-orm";', /Routes never talk to the database/],
    ["lib/carriers/sandbox/adapter.ts", 'import { x } from "@/lib/db/schema";', /Carriers never import/],
    ["lib/carriers/sandbox/adapter.ts", 'import { x } from "@/lib/shipments/claim";', /Carriers never import/],
    ["lib/carriers/http/client.ts", 'import { x } from "@/lib/connections/cache";', /Carriers never import/],
    ["lib/shipments/claim.ts", 'import { x } from "@/lib/api/errors";', /domain never imports lib\/api/],
    ["lib/trackers/refresh/budget.ts", 'import { x } from "@/lib/jobs/scheduler";', /domain never imports/],
    ["lib/db/client.ts", 'import { x } from "@/lib/auth/api-keys";', /database never imports the domain/],
    ["lib/addresses/offline-checks.ts", 'import { x } from "@/lib/api/with-api";', /domain never imports lib\/api/],
    ["lib/carriers/ups/address-validation.ts", 'import { x } from "@/lib/addresses/types";', /Carriers never import/],
    ["lib/db/client.ts", 'import { x } from "@/lib/carriers/sandbox/adapter";', /database never imports/],
    ["lib/db/schema/trackers.ts", 'import { x } from "../../trackers/tracking-rules";', /database never imports/],
    ["lib/trackers/refresh/due-trackers.ts", 'import { x } from "../present-tracker";', /through "@\/…"/],
    ["lib/batches/run-batch.ts", 'import { x } from "@/lib/api/errors";', /domain never imports lib\/api/],
    ["lib/batches/run-batch.ts", 'import { x } from "@/lib/jobs/scheduler";', /domain never imports/],
    ["lib/db/schema/batches.ts", 'import { x } from "../../batches/run-batch";', /database never imports/],
  ])("%s: %s is refused", async (file, source, message) => {
    const problems = await importProblems(file, source);
    expect(problems).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ["app/v1/shipments/route.ts", 'import { x } from "@/lib/shipments/create-shipment";'],
    ["lib/carriers/sandbox/adapter.ts", 'import { x } from "@/lib/labels/render";'],
    ["lib/shipments/claim.ts", 'import { x } from "@/lib/db/schema";'],
    ["lib/shipments/claim.ts", 'import { x } from "@/lib/carriers/registry";'],
    ["lib/batches/run-batch.ts", 'import { x } from "@/lib/shipments/purchase-shipment";'],
    ["lib/db/schema/trackers.ts", 'import { x } from "../../carriers/types";'],
    ["lib/db/client.ts", 'import { x } from "./schema";'],
  ])("%s: %s is allowed", async (file, source) => {
    expect(await importProblems(file, source)).toEqual([]);
  });
});
