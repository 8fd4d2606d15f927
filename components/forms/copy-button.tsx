"use client";

import { useState } from "react";
import { Check, Copy } from "lucide-react";
import { toast } from "@/components/ui/toaster";
import { Button } from "@/components/ui/button";

interface CopyButtonProps {
  value: string;
  /** What is copied, for the button's name and the toast: "Tracking number". */
  label: string;
  /** "icon": a small icon button beside the value; "text": an outlined button that says Copy / Copied. */
  look?: "icon" | "text";
}

/** Puts `text` on the clipboard; false when the browser refused (no permission, not a secure page). */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The dashboard's one copy-to-clipboard button: says when it worked, and what to do when the browser refused. */
export function CopyButton({ value, label, look = "icon" }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    if (!(await copyToClipboard(value))) {
      toast.error(`${label} could not be copied: select it and copy by hand.`);
      return;
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
    toast.success(`${label} copied.`);
  }
  const icon = copied ? <Check aria-hidden /> : <Copy aria-hidden />;
  if (look === "text")
    return (
      <Button variant="outline" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
        {icon} {copied ? "Copied" : "Copy"}
      </Button>
    );
  return (
    <Button variant="ghost" size="icon" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`} title="Copy">
      {icon}
    </Button>
  );
}
