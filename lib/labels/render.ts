import "server-only";
import type { LabelType } from "@/lib/carriers/types";
import type { LabelContent } from "@/lib/labels/content";
import { renderPdfLabel } from "@/lib/labels/pdf";
import { renderPngLabel } from "@/lib/labels/png";
import { renderZplLabel } from "@/lib/labels/zpl";

export type { LabelContent } from "@/lib/labels/content";

/** The label file for `content` in the requested format: PDF (4×6 page), ZPL (UTF-8 text) or PNG (203 dpi). */
export async function renderLabel(content: LabelContent, type: LabelType): Promise<Uint8Array> {
  switch (type) {
    case "PDF":
      return renderPdfLabel(content);
    case "PNG":
      return renderPngLabel(content);
    case "ZPL":
      return new TextEncoder().encode(renderZplLabel(content));
  }
}
