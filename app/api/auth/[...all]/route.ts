import { authEndpoint } from "@/lib/api/auth-endpoint";

// Accounts and sessions (better-auth): sign-up, sign-in, sign-out, get-session, change-password, sessions.
export const GET = authEndpoint;
export const POST = authEndpoint;
