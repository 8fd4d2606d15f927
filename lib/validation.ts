import type { z } from "zod";
import type { FieldProblem } from "@/lib/errors";

/** `["parcels", 0, "weight"]` → `parcels[0].weight` (docs/api.md, "Errors"). */
export function fieldPath(path: ReadonlyArray<PropertyKey>, prefix = ""): string | null {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || null;
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.input === null) return "must not be null";
      return `must be ${issue.expected === "array" ? "an array" : issue.expected === "object" ? "an object" : `a ${issue.expected}`}`;
    case "too_small":
      if (issue.origin === "string")
        return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      if (issue.origin === "array") return `must have at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}`;
      return issue.inclusive ? `must be at least ${issue.minimum}` : `must be greater than ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      if (issue.origin === "array") return `must have at most ${issue.maximum} items`;
      return issue.inclusive ? `must be at most ${issue.maximum}` : `must be less than ${issue.maximum}`;
    case "invalid_value":
      return `must be one of: ${issue.values.map(String).join(", ")}`;
    case "unrecognized_keys":
      return `has unknown key${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}`;
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

export function issuesToProblems(issues: z.core.$ZodIssue[], prefix = ""): FieldProblem[] {
  return issues.flatMap((issue): FieldProblem[] => {
    // Unknown keys are reported on each key itself so a client sees which fields to remove.
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        message: "is not a known field",
        field: fieldPath([...issue.path, key], prefix),
      }));
    }
    // Messages a schema wrote itself ("must be a two-letter country code") beat the generic ones.
    const own = /^(must|is|has) /.test(issue.message);
    return [{ message: own ? issue.message : describe(issue), field: fieldPath(issue.path, prefix) }];
  });
}
