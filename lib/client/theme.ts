/**
 * The colour theme a person chose in this browser: "system" (the default) follows the operating system's setting.
 * Kept in a cookie rather than localStorage so the server renders <html> with the right class and the first paint is
 * already in the chosen colours, without an inline script (which the Content-Security-Policy would need a nonce for).
 */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_COOKIE = "theme";

export function parseTheme(value: string | undefined | null): Theme {
  return (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";
}

/** The class <html> carries: none for "system", whose colours come from the `prefers-color-scheme` query. */
export function themeClass(theme: Theme): string | undefined {
  return theme === "system" ? undefined : theme;
}
