import tseslint from "typescript-eslint";
import nextPlugin from "@next/eslint-plugin-next";

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", "drizzle/**", ".data/**", "next-env.d.ts"] },
  ...tseslint.configs.recommended,
  {
    plugins: { "@next/next": nextPlugin },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Route handlers are transport only: they call lib verbs and never reach into the database layer.
    files: ["app/v1/**/*.ts", "app/v1/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/db", "@/lib/db/*", "**/lib/db", "**/lib/db/*"],
              message: "app/v1 must not import the database layer; call a lib verb.",
            },
            {
              group: ["drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/pglite", "@electric-sql/pglite/*"],
              message: "app/v1 must not talk to the database directly.",
            },
          ],
        },
      ],
    },
  },
);
