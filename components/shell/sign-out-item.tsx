"use client";

import { LogOut } from "lucide-react";
import { toast } from "@/components/ui/toaster";
import { DropdownMenuItem } from "@/components/ui/dropdown-menu";
import { authPost } from "@/lib/client/auth";

/**
 * Ends the session, then loads the sign-in page with a full navigation, which also drops every cached query and
 * client state of the signed-out user.
 */
export function SignOutItem() {
  async function signOut() {
    try {
      const answer = await authPost("sign-out");
      if (!answer.ok) throw new Error(`sign-out answered ${answer.status}`);
      window.location.assign("/sign-in");
    } catch {
      toast.error("Could not sign out. Check your connection and try again.");
    }
  }
  return (
    <DropdownMenuItem onSelect={() => void signOut()}>
      <LogOut aria-hidden />
      Sign out
    </DropdownMenuItem>
  );
}
