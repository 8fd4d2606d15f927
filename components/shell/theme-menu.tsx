"use client";

import { useState } from "react";
import { Monitor, Moon, Sun } from "lucide-react";
import { DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem } from "@/components/ui/dropdown-menu";
import { THEME_COOKIE, THEMES, parseTheme, themeClass, type Theme } from "@/lib/client/theme";

const ICONS = { system: Monitor, light: Sun, dark: Moon } as const;
const LABELS: Record<Theme, string> = { system: "Follow the system", light: "Light", dark: "Dark" };

/** The theme choice in the user menu: applied at once, and kept for a year in a cookie the server reads. */
export function ThemeMenu({ initial }: { initial: string | undefined }) {
  const [theme, setTheme] = useState<Theme>(parseTheme(initial));
  function choose(value: string) {
    const next = parseTheme(value);
    setTheme(next);
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
    const html = document.documentElement;
    html.classList.remove("dark", "light");
    const cls = themeClass(next);
    if (cls) html.classList.add(cls);
  }
  return (
    <>
      <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">Theme</DropdownMenuLabel>
      <DropdownMenuRadioGroup value={theme} onValueChange={choose}>
        {THEMES.map((t) => {
          const Icon = ICONS[t];
          return (
            <DropdownMenuRadioItem key={t} value={t}>
              <Icon aria-hidden />
              {LABELS[t]}
            </DropdownMenuRadioItem>
          );
        })}
      </DropdownMenuRadioGroup>
    </>
  );
}
