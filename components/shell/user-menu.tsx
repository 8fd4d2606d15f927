"use client";

import Link from "next/link";
import { ChevronsUpDown, UserRound } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { SignOutItem } from "@/components/shell/sign-out-item";
import { ThemeMenu } from "@/components/shell/theme-menu";
import type { Role } from "@/lib/auth/roles";

export interface UserMenuProps {
  user: { name: string; email: string };
  role: Role;
  /** The `theme` cookie as the server read it. */
  theme?: string;
}

export function UserMenu({ user, role, theme }: UserMenuProps) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="flex h-9 min-w-0 items-center gap-2 rounded-md px-2 text-left text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring md:w-full">
        <span
          aria-hidden
          className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
        >
          {initials(user.name)}
        </span>
        <span className="hidden min-w-0 flex-1 truncate font-medium md:block">{user.name}</span>
        <span className="sr-only md:hidden">Account menu for {user.name}</span>
        <ChevronsUpDown aria-hidden className="hidden size-4 shrink-0 text-muted-foreground md:block" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="grid gap-0.5">
          <span className="truncate font-medium">{user.name}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
          <span className="text-xs font-normal text-muted-foreground capitalize">{role}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/settings/account">
            <UserRound aria-hidden />
            Account
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <ThemeMenu initial={theme} />
        <DropdownMenuSeparator />
        <SignOutItem />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]![0], parts.at(-1)![0]] : [parts[0]?.[0]];
  return letters.join("").toUpperCase() || "?";
}
