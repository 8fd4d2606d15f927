// Before the browser tests' server starts (the embedded database admits one process at a time): bootstrap the empty
// database as the server would, and create an owner of the default organization and a member of it.
import { authFor } from "@/lib/auth/better-auth";
import { addMember } from "@/lib/auth/memberships";
import { bootstrap } from "@/lib/bootstrap";
import { systemContext } from "@/lib/context";
import { closeDb, getDb } from "@/lib/db/client";
import { ensureDefaultOrganization } from "@/lib/orgs/create-organization";
import { MEMBER, OWNER } from "./accounts";

async function seed() {
  const db = await getDb();
  const ctx = systemContext(db, "e2e-seed");
  await bootstrap({ ctx });
  const auth = authFor(db);
  const headers = new Headers({ host: "localhost" });
  for (const account of [OWNER, MEMBER]) await auth.api.signUpEmail({ body: account, headers });
  const { org } = await ensureDefaultOrganization({ ctx });
  await addMember({ ctx, orgId: org.id, email: MEMBER.email, role: "member" });
  await closeDb();
}

void seed().catch((err) => {
  console.error(err);
  process.exit(1);
});
