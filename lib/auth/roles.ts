/** docs/api.md, "Accounts and roles": what each role of an organization's member may do. */
export const ROLES = ["owner", "admin", "member"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

/** Owners can do everything admins can; admins everything members can. */
export function roleAllows(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}
