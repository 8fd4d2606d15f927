import Link from "next/link";
import { Card } from "@/components/ui/card";

/** One headline number with what it means and, below, how it compares. */
export function StatCard({
  label,
  value,
  detail,
  href,
}: {
  label: string;
  value: React.ReactNode;
  detail?: React.ReactNode;
  href?: string;
}) {
  return (
    <Card className="grid content-start gap-1 p-4">
      <h2 className="text-sm font-medium text-muted-foreground">
        {href ? (
          <Link href={href} className="hover:underline">
            {label}
          </Link>
        ) : (
          label
        )}
      </h2>
      <p className="text-2xl font-semibold tracking-tight tabular-nums">{value}</p>
      {detail && <p className="text-sm text-muted-foreground">{detail}</p>}
    </Card>
  );
}
