export * from "./organizations";
export * from "./api-keys";
export * from "./carrier-connections";
export * from "./idempotency-keys";
