import type { Metadata } from "next";
import { AuthPage } from "@/components/auth/auth-page";

export const metadata: Metadata = { title: "Create account" };

export default function SignUp({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  return <AuthPage mode="sign-up" searchParams={searchParams} />;
}
