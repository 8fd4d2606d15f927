import "server-only";
import { eq } from "drizzle-orm";
import type { DomainContext } from "@/lib/context";
import type { Role } from "@/lib/auth/roles";
import { getDb } from "@/lib/db/client";
import { organizations } from "@/lib/db/schema";
import { log } from "@/lib/log";

/** The signed-in user, their organization and role, and a domain context acting as them. */
export interface DashboardSession {
  user: { id: string; name: string; email: string };
  org: { id: string; name: string };
  role: Role;
  ctx: DomainContext;
}

/**
 * TEMPORARY scaffold while accounts land (issue 11): answers the default organization as its owner. The real
 * version reads the better-auth session and redirects a signed-out visit to /sign-in?next=…
 */
export async function requireSession(): Promise<DashboardSession> {
  const db = await getDb();
  const [org] = await db.select().from(organizations).where(eq(organizations.isDefault, true));
  if (!org) throw new Error("no default organization");
  const requestId = `page_${Date.now()}`;
  return {
    user: { id: "usr_scaffold", name: "Scaffold User", email: "scaffold@example.com" },
    org: { id: org.id, name: org.name },
    role: "owner",
    ctx: {
      db,
      org: { id: org.id },
      actor: { type: "user", id: "usr_scaffold" },
      requestId,
      log: log().child({ request_id: requestId }),
    },
  };
}
