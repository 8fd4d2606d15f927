import type { Metadata } from "next";
import { ScanStation } from "@/components/scan/scan-station";
import { requireSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Scan to print" };

export default async function ScanPage() {
  await requireSession();
  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Scan to print</h1>
        <p className="text-sm text-muted-foreground">
          Scan an order&apos;s barcode or a label: its label prints and the box is ready for the next one.
        </p>
      </div>
      <ScanStation />
    </div>
  );
}
