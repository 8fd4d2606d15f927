"use client";

import { useContext, useEffect, useImperativeHandle, useRef, useState } from "react";
import {
  ComboBox as AriaComboBox,
  ComboBoxStateContext,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  type Key,
} from "react-aria-components";
import { cn } from "@/components/ui/cn";
import { controlClasses } from "@/components/ui/input";

interface ComboboxProps<T extends object> {
  /** Shown above the field and names it. */
  label: string;
  placeholder?: string;
  /** The field's text: the caller searches with it (debounced with useDebouncedValue) and passes the answer as items. */
  inputValue: string;
  onInputChange: (value: string) => void;
  items: readonly T[];
  /** A unique, stable key per item. */
  itemKey: (item: T) => string;
  /** The item as plain text: what a screen reader says for it. */
  itemText: (item: T) => string;
  renderItem: (item: T) => React.ReactNode;
  /** An option was chosen (Enter or a click): the list closes and the field is emptied for the next search. */
  onSelect: (item: T) => void;
  /** The list opened or closed: a caller that searches an API asks only while it is open. */
  onOpenChange?: (open: boolean) => void;
  /** A search is under way: said in the list while it has no option yet. */
  loading?: boolean;
  /** Said in the list when the answer holds no option. */
  empty: React.ReactNode;
  /** Said in the list, instead of `empty`, when the search failed. */
  error?: React.ReactNode;
  className?: string;
}

/**
 * A combobox (React Aria's ComboBox, styled): a text field (role=combobox) whose list of options (role=listbox) opens
 * as the clerk types or presses Down. Up/Down move through the options while the focus stays in the field
 * (aria-activedescendant), Enter or a click picks one, Escape closes the list and empties the field, and screen
 * readers are told how many options there are. It picks, it does not hold a value: the caller's onSelect does
 * something with the option, and the field is emptied. The caller owns the search, so the options can come from an API
 * as the clerk types.
 */
export function Combobox<T extends object>({
  label,
  placeholder,
  inputValue,
  onInputChange,
  items,
  itemKey,
  itemText,
  renderItem,
  onSelect,
  onOpenChange,
  loading = false,
  empty,
  error,
  className,
}: ComboboxProps<T>) {
  const revert = useRef<() => void>(null);
  function select(key: Key | null) {
    const item = key === null ? undefined : items.find((i) => itemKey(i) === key);
    // No option: Escape or leaving the field reverts it to the selected option's text, and none is ever held.
    if (!item) return onInputChange("");
    onSelect(item);
    // Nothing stays selected: the field is emptied and the list closed, as React Aria does for Escape (its revert
    // goes back to the selected option's text, which here is none). Emptied alone, the field would reopen the list.
    onInputChange("");
    revert.current?.();
  }
  return (
    <AriaComboBox
      items={items}
      inputValue={inputValue}
      onInputChange={onInputChange}
      selectedKey={null}
      onSelectionChange={select}
      onOpenChange={onOpenChange}
      allowsEmptyCollection
      className={cn("grid gap-1.5", className)}
    >
      <Reverter into={revert} />
      <Label className="text-sm leading-none font-medium">{label}</Label>
      <Input placeholder={placeholder} className={cn(controlClasses, "h-9 py-1")} />
      <Popover
        offset={4}
        className="z-50 max-h-72 w-(--trigger-width) min-w-64 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md outline-none"
      >
        <ListBox<T>
          aria-busy={loading || undefined}
          className="outline-none"
          renderEmptyState={() => (
            <p className="px-2 py-1.5 text-sm text-muted-foreground">{error ?? (loading ? "Searching…" : empty)}</p>
          )}
        >
          {(item) => (
            <ListBoxItem
              id={itemKey(item)}
              textValue={itemText(item)}
              className="grid cursor-pointer gap-0.5 rounded-sm px-2 py-1.5 text-sm outline-none data-[focused]:bg-accent data-[focused]:text-accent-foreground"
            >
              {renderItem(item)}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}

/** Hands the combobox's own revert (close the list, back to the selected option's text) to the component around it. */
function Reverter({ into }: { into: React.Ref<() => void> }) {
  const state = useContext(ComboBoxStateContext);
  useImperativeHandle(into, () => () => state?.revert(), [state]);
  return null;
}

/** `value`, once it has not changed for `ms`: one search when the typing pauses, not one per key. */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
