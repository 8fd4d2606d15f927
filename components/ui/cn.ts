import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Class names joined, with later Tailwind utilities overriding earlier ones (a caller's `className` wins). */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
