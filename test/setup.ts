// Shared by every vitest worker. Logs stay quiet unless a developer asks for them.
process.env.LOG_LEVEL ??= "silent";
