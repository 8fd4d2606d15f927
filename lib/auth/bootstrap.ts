import { eq } from "drizzle-orm";
import { apiKeys } from "@/lib/db/schema";
import { newId } from "@/lib/db/ids";
import type { Db } from "@/lib/db/tx";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { ensureDefaultOrganization } from "@/lib/orgs/create-organization";
import { createApiKey, displayPrefix, hashApiKey } from "./api-keys";

/**
 * Runs once the database is migrated. BOOTSTRAP_API_KEY is ensured for the default organization (never
 * duplicated across restarts); without it, the first start of an empty database generates a key and prints it once.
 */
export async function bootstrap(db: Db): Promise<void> {
  const { org, created } = await ensureDefaultOrganization(db);
  const configured = env().BOOTSTRAP_API_KEY;
  if (configured) {
    const inserted = await db
      .insert(apiKeys)
      .values({
        id: newId("key"),
        orgId: org.id,
        name: "Bootstrap key",
        keyHash: hashApiKey(configured),
        keyPrefix: displayPrefix(configured),
        source: "bootstrap",
      })
      .onConflictDoNothing()
      .returning({ id: apiKeys.id });
    if (inserted.length > 0) {
      log().info({
        msg: "bootstrap API key registered for the default organization",
        key_id: inserted[0]!.id,
        org_id: org.id,
      });
    } else {
      const [row] = await db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.keyHash, hashApiKey(configured)));
      if (row?.revokedAt)
        log().warn({ msg: "BOOTSTRAP_API_KEY was revoked and stays revoked; set a new one", key_id: row.id });
    }
    return;
  }
  if (created) {
    const key = await createApiKey(db, { orgId: org.id, name: "First key", source: "generated" });
    log().warn({
      msg: `First start: generated an API key for the default organization. It is shown only this once: ${key.key}`,
      key_id: key.id,
      org_id: org.id,
    });
  }
}
