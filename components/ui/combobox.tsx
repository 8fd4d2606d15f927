"use client";

import { useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
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
 * (aria-activedescendant), Enter or a click picks one, Escape closes the list, and screen readers are told how many
 * options there are. It picks, it does not hold a value: the caller's onSelect does something with the option, and the
 * field is emptied. The caller owns the search, so the options can come from an API as the clerk types.
 *
 * What was typed is a search, kept when the list closes without a pick (Escape, leaving the field, or React Aria
 * closing a list whose page scrolled, since it would float away from its field): Down or more typing opens it again.
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
  const state = useRef<ComboState>(null);
  const closeOnceEmpty = useRef(false);
  function select(key: Key | null) {
    const item = key === null ? undefined : items.find((i) => itemKey(i) === key);
    if (!item) return;
    onSelect(item);
    // Nothing stays selected: the field is emptied, and the list closed once it is (StateBridge).
    if (inputValue === "") return state.current?.close();
    onInputChange("");
    closeOnceEmpty.current = true;
  }
  return (
    <AriaComboBox
      items={items}
      inputValue={inputValue}
      onInputChange={onInputChange}
      selectedKey={null}
      onSelectionChange={select}
      // The typed text is a search: kept when the list closes with no pick. Without this, every close reverts the field
      // to the selected option's text (here none).
      allowsCustomValue
      onOpenChange={onOpenChange}
      allowsEmptyCollection
      className={cn("grid gap-1.5", className)}
    >
      <StateBridge into={state} closeOnceEmpty={closeOnceEmpty} />
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

type ComboState = NonNullable<React.ContextType<typeof ComboBoxStateContext>>;

/**
 * Hands React Aria's state to the component around it, and closes the list after a pick in the render where the
 * emptied field has arrived: closed any earlier, React Aria would see the field's text change while closed and open
 * the list again. A layout effect, so the list open on an empty search is never painted.
 */
function StateBridge({
  into,
  closeOnceEmpty,
}: {
  into: React.RefObject<ComboState | null>;
  closeOnceEmpty: React.RefObject<boolean>;
}) {
  const state = useContext(ComboBoxStateContext);
  useLayoutEffect(() => {
    into.current = state;
    if (!closeOnceEmpty.current || !state || state.inputValue !== "") return;
    closeOnceEmpty.current = false;
    state.close();
  });
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
