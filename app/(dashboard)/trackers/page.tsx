import type { Metadata } from "next";
import { TrackerTable } from "@/components/trackers/tracker-table";
import { Pagination } from "@/components/ui/pagination";
import { requireSession } from "@/lib/dashboard/session";
import { listTrackers } from "@/lib/trackers/list-trackers";

export const metadata: Metadata = { title: "Trackers" };

const PAGE_SIZE = 50;

export default async function Trackers({ searchParams }: { searchParams: Promise<{ page?: string | string[] }> }) {
  const { ctx } = await requireSession();
  const asked = Number((await searchParams).page);
  const page = Number.isInteger(asked) && asked > 0 ? asked : 1;
  const { count, results } = await listTrackers({ ctx, filters: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } });
  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Trackers</h1>
        <p className="text-sm text-muted-foreground">
          Parcels being followed, newest first: every label bought here, and numbers tracked through the API. They
          refresh in the background.
        </p>
      </header>
      <TrackerTable trackers={results} />
      <Pagination
        page={page}
        pageCount={Math.max(1, Math.ceil(count / PAGE_SIZE))}
        href={(p) => (p === 1 ? "/trackers" : `/trackers?page=${p}`)}
      />
    </div>
  );
}
