import { parseArgs } from "node:util";
import { sendLogsToStderr } from "@/lib/log";
import { closeDb } from "@/lib/db/client";
import { DataDirInUseError } from "@/lib/db/data-dir-lock";
import { getDb } from "@/lib/db/client";
import { bootstrap } from "@/lib/bootstrap";
import { systemContext } from "@/lib/context";
import { createOrganization, ensureDefaultOrganization } from "@/lib/orgs/create-organization";
import { listOrganizations } from "@/lib/orgs/list-organizations";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { NotFoundError } from "@/lib/errors";
import { addMember } from "@/lib/auth/memberships";
import { ROLES } from "@/lib/auth/roles";
import { z } from "zod";
import { API_VERSIONS, ApiVersionSchema } from "@/lib/schemas/api-key";

const USAGE = `Usage: npm run cli -- <command>

  orgs create --name <name>                 create an organization; prints its id
  orgs list                                 list organizations
  keys create --name <label> [--org <id>] [--api-version <version>]
                                            create an API key (default organization without --org; the current
                                            API version without --api-version: ${API_VERSIONS.join(", ")}); prints the key
  keys list [--org <id>]                    list API keys (never the keys themselves)
  keys revoke <key_id>                      revoke an API key
  members add --email <email> --role <owner|admin|member> [--org <id>]
                                            put an account (signed up already) into an organization, default
                                            organization without --org, or change its role there

Tip: \`npm run -s cli -- …\` keeps npm's own banner out of stdout, e.g. KEY=$(npm run -s cli -- keys create --name ci).`;

class UsageError extends Error {}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return "(none)";
  const cols = Object.keys(rows[0]!);
  const cell = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? "-" : String(v));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join("\n");
}

async function run(argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      org: { type: "string" },
      "api-version": { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [group, action, ...rest] = positionals;
  if (values.help || !group) return USAGE;
  const command = `${group} ${action ?? ""}`.trim();
  const known = ["orgs create", "orgs list", "keys create", "keys list", "keys revoke", "members add"];
  if (!known.includes(command)) throw new UsageError(`Unknown command "${command}".`);
  if ((command === "orgs create" || command === "keys create") && !values.name?.trim()) {
    throw new UsageError(`"${command}" needs --name <${group === "orgs" ? "name" : "label"}>.`);
  }
  if (command === "keys revoke" && !rest[0]) throw new UsageError(`"keys revoke" needs a key id.`);
  const role = z.enum(ROLES).safeParse(values.role);
  if (command === "members add" && (!values.email?.trim() || !role.success)) {
    throw new UsageError(`"members add" needs --email <email> and --role <${ROLES.join("|")}>.`);
  }
  const apiVersion = ApiVersionSchema.optional().safeParse(values["api-version"]);
  if (!apiVersion.success) {
    throw new UsageError(`--api-version must be one of: ${API_VERSIONS.join(", ")}.`);
  }

  // A command line run is a start like the server's: the first one on an empty database bootstraps it.
  const ctx = systemContext(await getDb(), "cli");
  await bootstrap({ ctx });
  switch (command) {
    case "orgs create":
      return (await createOrganization({ ctx, name: values.name! })).id;
    case "orgs list":
      return table(await listOrganizations({ ctx }));
    case "keys create": {
      const orgId = values.org ?? (await ensureDefaultOrganization({ ctx })).org.id;
      const name = values.name!.trim();
      return (await createApiKey({ ctx, orgId, name, source: "cli", apiVersion: apiVersion.data })).key;
    }
    case "keys list":
      return table(await listApiKeys({ ctx, orgId: values.org }));
    case "members add": {
      const orgId = values.org ?? (await ensureDefaultOrganization({ ctx })).org.id;
      const added = await addMember({ ctx, orgId, email: values.email!, role: role.data! });
      return `${added.userId} is now ${added.role} of ${added.orgId}.`;
    }
    default: {
      const revoked = await revokeApiKey({ ctx, keyId: rest[0]! });
      return `Revoked ${revoked.id} (${revoked.name}).`;
    }
  }
}

async function main() {
  sendLogsToStderr();
  let code = 0;
  try {
    process.stdout.write((await run(process.argv.slice(2))) + "\n");
  } catch (err) {
    code = err instanceof UsageError ? 2 : 1;
    const known = err instanceof UsageError || err instanceof NotFoundError || err instanceof DataDirInUseError;
    process.stderr.write(
      `error: ${known ? (err as Error).message : `unexpected failure: ${(err as Error).message}`}\n`,
    );
    if (err instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
  } finally {
    await closeDb().catch(() => {});
  }
  process.exit(code);
}

void main();
