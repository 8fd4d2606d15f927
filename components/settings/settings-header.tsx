import { LinkTabs } from "@/components/ui/link-tabs";
import { roleAllows, type Role } from "@/lib/auth/roles";

type Section = "account" | "api-keys" | "webhooks";

/** The settings pages' title and tabs; a member sees only what a member may use. */
export function SettingsHeader({ current, role }: { current: Section; role: Role }) {
  const items = [
    { href: "/settings/account", label: "Account", current: current === "account" },
    ...(roleAllows(role, "admin")
      ? [{ href: "/settings/api-keys", label: "API keys", current: current === "api-keys" }]
      : []),
    { href: "/settings/webhooks", label: "Webhooks", current: current === "webhooks" },
  ];
  return (
    <header className="grid gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      <LinkTabs label="Settings" items={items} />
    </header>
  );
}
