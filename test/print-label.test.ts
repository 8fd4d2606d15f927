// @vitest-environment happy-dom
import type { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { printShipmentLabel } from "@/components/labels/print-label";

/** A query client that answers every label fetch with a small file, and a tab the label would open in. */
function setup() {
  const fetchQuery = vi.fn(async (_options: { queryKey: unknown[] }) => ({ blob: new Blob(["%PDF"]), filename: "x" }));
  const replace = vi.fn();
  const tab = { location: { replace }, close: vi.fn() } as unknown as Window;
  return { queryClient: { fetchQuery } as unknown as QueryClient, fetchQuery, replace, tab };
}

describe("printShipmentLabel", () => {
  it("prints the label as bought on a label printer", async () => {
    const { queryClient, fetchQuery, replace, tab } = setup();
    await printShipmentLabel(queryClient, "shp_1", "PNG", "label", { frame: false, tab });
    expect(fetchQuery.mock.calls[0]![0].queryKey).toEqual(["label-file", "/v1/shipments/shp_1/label"]);
    expect(replace).toHaveBeenCalledTimes(1);
  });

  it("prints the Letter or A4 sheet on office paper", async () => {
    for (const paper of ["letter", "a4"] as const) {
      const { queryClient, fetchQuery, tab } = setup();
      await printShipmentLabel(queryClient, "shp_1", "PNG", paper, { frame: false, tab });
      expect(fetchQuery.mock.calls[0]![0].queryKey).toEqual([
        "label-file",
        `/v1/shipments/shp_1/label?layout=${paper}`,
      ]);
    }
  });
});
