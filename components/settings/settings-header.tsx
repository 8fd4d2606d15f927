import { LinkTabs } from "@/components/ui/link-tabs";
import { roleAllows, type Role } from "@/lib/auth/roles";
import { PageTitle } from "@/components/shell/page-header";

type Section = "account" | "connections" | "addresses" | "parcels" | "api-keys" | "webhooks" | "team" | "audit";

/** The settings pages, in order, with the least role that sees each tab (the pages check again themselves). */
const SECTIONS: readonly { section: Section; href: string; label: string; role: Role }[] = [
  { section: "account", href: "/settings/account", label: "Account", role: "member" },
  // Members read the connections (which carriers this organization ships with); admins change them.
  { section: "connections", href: "/settings/connections", label: "Carrier connections", role: "member" },
  // The organization's saved addresses (the create-label form's address book): members use and tidy them.
  { section: "addresses", href: "/settings/addresses", label: "Address book", role: "member" },
  // The organization's boxes and rate rule: members see what the create-label form will offer; admins change them.
  { section: "parcels", href: "/settings/parcels", label: "Parcels and rates", role: "member" },
  { section: "api-keys", href: "/settings/api-keys", label: "API keys", role: "admin" },
  // Members read the endpoints and their delivery logs; admins change them.
  { section: "webhooks", href: "/settings/webhooks", label: "Webhooks", role: "member" },
  { section: "team", href: "/settings/team", label: "Team", role: "member" },
  { section: "audit", href: "/settings/audit", label: "Audit log", role: "admin" },
];

/** The settings pages' title and tabs; a member sees only what a member may use. */
export function SettingsHeader({ current, role }: { current: Section; role: Role }) {
  const items = SECTIONS.filter((s) => roleAllows(role, s.role)).map((s) => ({
    href: s.href,
    label: s.label,
    current: s.section === current,
  }));
  return (
    <header className="grid gap-4">
      <PageTitle>Settings</PageTitle>
      <LinkTabs label="Settings" items={items} />
    </header>
  );
}
