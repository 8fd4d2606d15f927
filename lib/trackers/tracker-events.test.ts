import { describe, expect, it } from "vitest";
import type { Tx } from "@/lib/db/tx";
import { mergeEventTypes, recordTrackerEvents } from "./tracker-events";
import type { TrackerRow } from "./present-tracker";

const tracker = (status: string) => ({ status }) as TrackerRow;

describe("mergeEventTypes", () => {
  it("is nothing when the merge changed nothing", () => {
    expect(mergeEventTypes(tracker("in_transit"), tracker("delivered"), false)).toEqual([]);
  });

  it("is tracker.updated for a change that keeps the status, even a delivered or exception one", () => {
    expect(mergeEventTypes(tracker("in_transit"), tracker("in_transit"), true)).toEqual(["tracker.updated"]);
    expect(mergeEventTypes(tracker("delivered"), tracker("delivered"), true)).toEqual(["tracker.updated"]);
    expect(mergeEventTypes(tracker("on_hold"), tracker("on_hold"), true)).toEqual(["tracker.updated"]);
  });

  it("adds tracker.delivered, or tracker.exception for on_hold, delivery_failed, return_to_sender and lost", () => {
    expect(mergeEventTypes(tracker("in_transit"), tracker("delivered"), true)).toEqual([
      "tracker.updated",
      "tracker.delivered",
    ]);
    for (const status of ["on_hold", "delivery_failed", "return_to_sender", "lost"]) {
      expect(mergeEventTypes(tracker("in_transit"), tracker(status), true)).toEqual([
        "tracker.updated",
        "tracker.exception",
      ]);
    }
    for (const status of ["out_for_delivery", "pre_transit", "unknown", "cancelled"]) {
      expect(mergeEventTypes(tracker("in_transit"), tracker(status), true)).toEqual(["tracker.updated"]);
    }
  });
});

describe("recordTrackerEvents", () => {
  it("touches the database not at all when no tracker has an event to write", async () => {
    // Any use of the transaction (a read of the trackers, a write to the outbox) throws.
    const tx = new Proxy({} as Tx, {
      get(_, name) {
        throw new Error(`used tx.${String(name)}`);
      },
    });
    const row = { id: "trk_1", orgId: "org_1", status: "in_transit" } as TrackerRow;
    await expect(recordTrackerEvents(tx, [{ tracker: row, types: [] }], new Date())).resolves.toBeUndefined();
  });
});
