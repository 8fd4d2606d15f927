"use client";

import { useEffect } from "react";
import { TriangleAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/** A page that failed to render: the navigation stays, and the clerk can retry without reloading everything. */
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <EmptyState
      titleAs="h1"
      icon={TriangleAlert}
      title="This page could not be shown"
      description={
        <>
          Something went wrong on our side. Try again; if it keeps happening, give your administrator this reference:{" "}
          <code className="font-mono">{error.digest ?? "none"}</code>.
        </>
      }
      action={<Button onClick={reset}>Try again</Button>}
    />
  );
}
