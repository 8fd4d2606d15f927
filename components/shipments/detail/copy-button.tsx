"use client";

import { useState } from "react";
import { Check, Copy } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";

/** Copies a value (a tracking number) for pasting into a carrier's site or an email; says so when it worked. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
      toast.success(`${label} copied.`);
    } catch {
      toast.error(`${label} could not be copied: select it and copy by hand.`);
    }
  }
  return (
    <Button variant="ghost" size="icon" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`} title="Copy">
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
    </Button>
  );
}
