import type { Metadata } from "next";
import { ScanStation } from "@/components/scan/scan-station";
import { requireSession } from "@/lib/dashboard/session";
import { printPaperKey } from "@/lib/client/print-paper";
import { PageHeader } from "@/components/shell/page-header";

export const metadata: Metadata = { title: "Scan to print" };

export default async function ScanPage() {
  const { org, user } = await requireSession();
  return (
    <div className="grid gap-5">
      <PageHeader
        title="Scan to print"
        description="Scan an order's barcode or a label: its label prints and the box is ready for the next one."
      />
      <ScanStation paperKey={printPaperKey(org.id, user.id)} />
    </div>
  );
}
