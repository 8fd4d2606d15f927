import { cn } from "@/components/ui/cn";

/** A dashboard page's one h1, in the dashboard's title style. */
export function PageTitle({ className, ...props }: React.ComponentProps<"h1">) {
  return <h1 className={cn("text-2xl font-semibold tracking-tight", className)} {...props} />;
}

interface PageHeaderProps {
  title: React.ReactNode;
  /** One line on what the page is for. */
  description?: React.ReactNode;
  /** The page's main act ("Create label"): on the right, below the title where the screen is too narrow. */
  action?: React.ReactNode;
}

/** The top of a list or form page: its title, what it is for, its main act. A record's page has its own header. */
export function PageHeader({ title, description, action }: PageHeaderProps) {
  const heading = description ? (
    <div className="grid gap-1">
      <PageTitle>{title}</PageTitle>
      <p className="text-sm text-muted-foreground">{description}</p>
    </div>
  ) : (
    <PageTitle>{title}</PageTitle>
  );
  if (!action) return heading;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {heading}
      {action}
    </div>
  );
}
