import { unknownEndpoint } from "@/lib/api/fallback";

// Unknown /api paths answer in the envelope, as unknown /v1 paths do: otherwise Next.js renders its not-found page
// there, a page outside proxy.ts's matcher, so without the page policy (docs/api.md, "Conventions").
export const GET = unknownEndpoint;
export const POST = unknownEndpoint;
export const PUT = unknownEndpoint;
export const PATCH = unknownEndpoint;
export const DELETE = unknownEndpoint;
