import { unknownEndpoint } from "@/lib/api/fallback";

// Unknown /v1 paths answer in the contract's envelope rather than with the framework's HTML page.
export const GET = unknownEndpoint;
export const POST = unknownEndpoint;
export const PUT = unknownEndpoint;
export const PATCH = unknownEndpoint;
export const DELETE = unknownEndpoint;
