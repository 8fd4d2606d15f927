import "server-only";
import type { SystemContext } from "@/lib/context";
import { env } from "@/lib/env";
import { createApiKey, ensureApiKey } from "@/lib/auth/api-keys";
import { ensureDefaultOrganization } from "@/lib/orgs/create-organization";

/**
 * What a starting process (the server, the command line) does once the database is open: the default organization
 * exists (with its sandbox connection), BOOTSTRAP_API_KEY is registered for it (never duplicated across restarts),
 * and without that variable the first start of an empty database generates a key and prints it once.
 */
export async function bootstrap({ ctx }: { ctx: SystemContext }): Promise<void> {
  const { org, created } = await ensureDefaultOrganization({ ctx });
  const configured = env().BOOTSTRAP_API_KEY;
  if (configured) {
    const key = await ensureApiKey({ ctx, orgId: org.id, name: "Bootstrap key", key: configured });
    if (key.created) {
      ctx.log.info({
        msg: "bootstrap API key registered for the default organization",
        key_id: key.id,
        org_id: org.id,
      });
    } else if (key.revoked) {
      ctx.log.warn({ msg: "BOOTSTRAP_API_KEY was revoked and stays revoked; set a new one", key_id: key.id });
    }
    return;
  }
  if (created) {
    const key = await createApiKey({ ctx, orgId: org.id, name: "First key", source: "generated" });
    ctx.log.warn({
      msg: `First start: generated an API key for the default organization. It is shown only this once: ${key.key}`,
      key_id: key.id,
      org_id: org.id,
    });
  }
}
