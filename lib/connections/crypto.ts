import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { env, isEmbedded, isInMemory } from "@/lib/env";

/**
 * Carrier credentials at rest: AES-256-GCM with a random 12-byte IV per value and the connection id as
 * additional authenticated data, so a ciphertext copied onto another row does not decrypt.
 * Envelope: `v1.<iv>.<tag>.<ciphertext>` (base64url parts).
 */
let cachedKey: Buffer | null = null;

function parseKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) {
    throw new Error("ENCRYPTION_KEY must be 32 bytes, given as 64 hex characters or base64.");
  }
  return key;
}

function encryptionKey(): Buffer {
  if (cachedKey) return cachedKey;
  const configured = env().ENCRYPTION_KEY;
  if (configured) {
    cachedKey = parseKey(configured);
  } else if (isInMemory()) {
    cachedKey = randomBytes(32); // nothing outlives the process, so neither need the key
  } else if (isEmbedded()) {
    // The embedded default keeps its generated key beside the data it protects.
    const dir = resolve(env().DATA_DIR);
    const file = join(dir, "encryption.key");
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
    }
    cachedKey = parseKey(readFileSync(file, "utf8"));
  } else {
    throw new Error(
      "ENCRYPTION_KEY is required with DATABASE_URL (32 bytes as 64 hex characters, e.g. `openssl rand -hex 32`).",
    );
  }
  return cachedKey;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function encryptJson(value: unknown, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(
    ".",
  );
}

export function decryptJson<T = unknown>(envelope: string, aad: string): T {
  const [version, iv, tag, body] = envelope.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Unrecognised credentials envelope.");
  const ivBytes = Buffer.from(iv, "base64url");
  const tagBytes = Buffer.from(tag, "base64url");
  // GCM would authenticate a tag cut down to 4 bytes (a 1 in 2^32 forgery): only the full tag we write is taken.
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES)
    throw new Error("Unrecognised credentials envelope.");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), ivBytes, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(tagBytes);
  let text: string;
  try {
    text = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    // GCM's own "unable to authenticate data" does not tell an operator what to check; nothing was decrypted.
    throw new Error(
      "Stored credentials could not be decrypted: ENCRYPTION_KEY is not the key they were encrypted with, or they were altered.",
    );
  }
  return JSON.parse(text) as T;
}

/**
 * A 32-byte secret for one purpose (signing session cookies), derived from the encryption key with HKDF, so an
 * operator keeps one secret, and knowing a derived secret reveals neither the key nor another purpose's secret.
 */
export function derivedSecret(purpose: string): string {
  return Buffer.from(hkdfSync("sha256", encryptionKey(), Buffer.alloc(0), `shipwell ${purpose}`, 32)).toString("hex");
}
