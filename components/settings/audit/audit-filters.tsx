import Link from "next/link";
import { Button } from "@/components/ui/button";
import { buttonVariants } from "@/components/ui/button-variants";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { AUDIT_ACTIONS } from "@/lib/schemas/audit-event";
import type { AuditFilterValues } from "./search-params";

/** A plain GET form: the filters live in the URL and work before any script loads. */
export function AuditFilters({ values, invalid }: { values: AuditFilterValues; invalid: boolean }) {
  return (
    <form method="get" action="/settings/audit" className="grid gap-3" aria-label="Filter the audit log">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <div className="grid gap-1.5">
          <Label htmlFor="audit-action">Action</Label>
          <NativeSelect id="audit-action" name="action" defaultValue={values.action ?? ""}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-actor">Actor id</Label>
          <Input id="audit-actor" name="actor_id" placeholder="usr_… or key_…" defaultValue={values.actor_id} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-resource">Resource id</Label>
          <Input id="audit-resource" name="resource_id" placeholder="shp_…" defaultValue={values.resource_id} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-after">From (UTC)</Label>
          <Input id="audit-after" name="created_after" type="date" defaultValue={values.created_after} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-before">Before (UTC)</Label>
          <Input id="audit-before" name="created_before" type="date" defaultValue={values.created_before} />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" size="sm" submitsWithoutScript>
          Filter
        </Button>
        <Link href="/settings/audit" className={buttonVariants({ variant: "outline", size: "sm" })}>
          Clear
        </Link>
        {invalid && (
          <p role="alert" className="text-sm text-destructive">
            Some filters are not valid (ids start with usr_, key_, shp_ …; dates are YYYY-MM-DD); showing everything.
          </p>
        )}
      </div>
    </form>
  );
}
