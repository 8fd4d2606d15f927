"use client";

import { Search } from "lucide-react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

/** The parts the shipments and trackers lists filter with: a search box and a carrier menu. */

const ALL_CARRIERS = "all";

/** A search form: `onType` on each keystroke (the caller debounces), `onSearch` on Enter. */
export function SearchField({
  id,
  placeholder,
  value,
  onType,
  onSearch,
}: {
  id: string;
  placeholder: string;
  value: string;
  onType: (value: string) => void;
  onSearch: () => void;
}) {
  return (
    <form
      role="search"
      className="grid min-w-56 flex-1 gap-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      <Label htmlFor={id}>Search</Label>
      <div className="relative">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          id={id}
          type="search"
          className="pl-8"
          placeholder={placeholder}
          value={value}
          maxLength={100}
          onChange={(e) => onType(e.target.value)}
        />
      </div>
    </form>
  );
}

/** "All carriers" or one of `carriers` (the chosen one stays listed even when no row has it any more). */
export function CarrierSelect({
  id,
  carriers,
  value,
  onChange,
}: {
  id: string;
  carriers: string[];
  value: string;
  onChange: (carrier: string | null) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Carrier</Label>
      <Select value={value || ALL_CARRIERS} onValueChange={(v) => onChange(v === ALL_CARRIERS ? null : v)}>
        <SelectTrigger id={id} className="w-44">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL_CARRIERS}>All carriers</SelectItem>
          {[...new Set([...carriers, ...(value ? [value] : [])])].map((c) => (
            <SelectItem key={c} value={c}>
              {c}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
