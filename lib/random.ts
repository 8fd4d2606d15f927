import { randomFillSync } from "node:crypto";

/**
 * 16 random bytes as 32 lowercase hex characters: ids and request ids. The bytes come from the system's CSPRNG like
 * randomBytes(16), but filled 256 ids at a time (as Node does for randomUUID): one call into the kernel's generator
 * per 256 ids instead of one each, which was a tenth of a proxy rates request's CPU. Each byte is handed out once.
 */
const BYTES = 16;
const pool = Buffer.alloc(BYTES * 256);
let offset = pool.length;

export function randomHex128(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString("hex", offset, offset + BYTES);
  offset += BYTES;
  return hex;
}
