import "server-only";
import { getDb } from "@/lib/db/client";
import { findPublicTracker } from "@/lib/trackers/public-tracker";
import type { PublicTracker } from "@/lib/trackers/present-public-tracker";

/** The public tracking page's one read: the tracker behind a share link, in its public view, or null. */
export async function publicTracker(publicId: string): Promise<PublicTracker | null> {
  return findPublicTracker(await getDb(), publicId);
}
