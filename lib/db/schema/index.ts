export * from "./organizations";
export * from "./api-keys";
export * from "./carrier-connections";
export * from "./idempotency-keys";
export * from "./addresses";
export * from "./shipments";
export * from "./trackers";
export * from "./carrier-ledger";
