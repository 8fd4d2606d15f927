import "server-only";
import { eq } from "drizzle-orm";
import { trackers } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/tx";
import { loadStoredTracker } from "./load-trackers";
import { presentPublicTracker, type PublicTracker } from "./present-public-tracker";

const PUBLIC_ID = /^[0-9a-f]{32}$/;

/**
 * The tracker behind a share link, in its public view, or null. The public id is the capability (128 random bits),
 * so this read spans organizations like a system job; nothing else of the organization is read or answered.
 */
export async function findPublicTracker(db: DbOrTx, publicId: string): Promise<PublicTracker | null> {
  if (!PUBLIC_ID.test(publicId)) return null;
  const [row] = await db.select().from(trackers).where(eq(trackers.publicId, publicId)).limit(1);
  return row ? presentPublicTracker(await loadStoredTracker(db, row)) : null;
}
