import { ShieldAlert } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import type { Role } from "@/lib/auth/roles";

/** What a person sees on a page their role does not open: who can, and that nothing is wrong with their account. */
export function ForbiddenNotice({ what, role }: { what: string; role: Role }) {
  return (
    <EmptyState
      icon={ShieldAlert}
      title={`Only an owner or admin can manage ${what}`}
      description={`You are a ${role} of this organization. Ask an owner to change your role if you need this.`}
    />
  );
}
