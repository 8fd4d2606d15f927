import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { apiFile } from "@/lib/client/api";
import { attachmentName, printsFromFrame } from "@/lib/client/print-support";
import type { PrintPaper } from "@/lib/client/print-paper";
import { ClientProblem } from "@/lib/client/problems";

/**
 * Printing and downloading a label from the browser. Files are fetched same-origin with the session
 * cookie and handed to the browser as blob URLs: the label endpoint answers `attachment` and every answer carries
 * `X-Frame-Options: DENY`, so its URL could be neither shown in a frame nor printed from one.
 */

export type SheetLayout = Exclude<PrintPaper, "label">;

/** The label file's URL: as bought, or laid on a Letter/A4 sheet (a PDF; the API refuses it for ZPL). */
export function labelUrl(shipmentId: string, layout?: SheetLayout): string {
  const base = `/v1/shipments/${encodeURIComponent(shipmentId)}/label`;
  return layout ? `${base}?layout=${layout}` : base;
}

export interface LabelFile {
  blob: Blob;
  filename: string;
}

async function fetchLabelFile(url: string, signal?: AbortSignal): Promise<LabelFile> {
  const { blob, contentDisposition } = await apiFile(url, { signal });
  return { blob, filename: attachmentName(contentDisposition, "label") };
}

/** One fetch of a label file shared by its preview, Print and Download (a bought label's bytes do not change). */
export const labelFileQuery = (url: string) =>
  queryOptions({
    queryKey: ["label-file", url],
    queryFn: ({ signal }) => fetchLabelFile(url, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** Forget fetched label files (after a void: the label must not be printed again from the cache). */
export function forgetLabelFiles(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: ["label-file"] });
}

/** Where the label goes to print, decided in the click itself: a tab opened later would be blocked as a pop-up. */
export type PrintTarget = { frame: true } | { frame: false; tab: Window | null };

export function choosePrintTarget(): PrintTarget {
  if (printsFromFrame(navigator.userAgent)) return { frame: true };
  return { frame: false, tab: window.open("about:blank", "_blank") };
}

/** The off-screen frame a label prints from (its title names it for assistive technology and for the scan page). */
export const PRINT_FRAME_TITLE = "Label being printed";

// One print frame at a time: it has to outlive print() (Chrome prints a PDF frame asynchronously), so it is removed
// when the next print starts.
let printFrame: { element: HTMLIFrameElement; objectUrl: string } | null = null;

function printFromFrame(objectUrl: string, type: "PDF" | "PNG"): void {
  if (printFrame) {
    printFrame.element.remove();
    URL.revokeObjectURL(printFrame.objectUrl);
  }
  const frame = document.createElement("iframe");
  frame.title = PRINT_FRAME_TITLE;
  frame.tabIndex = -1;
  frame.setAttribute("aria-hidden", "true");
  // Off-screen and transparent but laid out at label size: a display:none frame never renders, so prints blank.
  Object.assign(frame.style, {
    position: "fixed",
    left: "-10000px",
    top: "0",
    width: "4in",
    height: "6in",
    border: "0",
    opacity: "0",
    pointerEvents: "none",
  });
  frame.addEventListener("load", () => {
    frame.contentWindow?.focus();
    frame.contentWindow?.print();
  });
  if (type === "PDF") {
    frame.src = objectUrl;
  } else {
    // An image has no page size of its own: a 4×6 page with no margin, the image filling it (the driver's paper
    // still decides; the clerk sets it to 4×6 once).
    frame.srcdoc =
      "<!doctype html><title>Label</title><style>@page{size:4in 6in;margin:0}html,body{margin:0}" +
      `img{display:block;width:4in;height:6in;object-fit:contain}</style><img alt="" src="${objectUrl}">`;
  }
  document.body.append(frame);
  printFrame = { element: frame, objectUrl };
}

/** Prints the label at 4×6: from an off-screen frame, or in the tab opened for it (Safari, Firefox). */
export async function printLabelFile(
  queryClient: QueryClient,
  url: string,
  type: "PDF" | "PNG",
  target: PrintTarget,
): Promise<void> {
  if (!target.frame && !target.tab) {
    throw new ClientProblem(
      "The browser blocked the tab the label opens in: allow pop-ups for this site, or use Download.",
    );
  }
  try {
    const { blob } = await queryClient.fetchQuery(labelFileQuery(url));
    const objectUrl = URL.createObjectURL(blob);
    if (target.frame) {
      printFromFrame(objectUrl, type);
    } else {
      target.tab!.location.replace(objectUrl);
      // The tab has loaded it by then; the URL only kept the blob alive.
      setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
    }
  } catch (err) {
    if (!target.frame) target.tab?.close();
    throw err;
  }
}

/** Prints a shipment's label on this person's paper: the label as bought, or laid on a Letter or A4 sheet (a PDF). */
export function printShipmentLabel(
  queryClient: QueryClient,
  shipmentId: string,
  type: "PDF" | "PNG",
  paper: PrintPaper,
  target: PrintTarget,
): Promise<void> {
  return paper === "label"
    ? printLabelFile(queryClient, labelUrl(shipmentId), type, target)
    : printLabelFile(queryClient, labelUrl(shipmentId, paper), "PDF", target);
}

/** Saves the label file under the name the server gives it (`<tracking number>.pdf`, `…-letter.pdf`). */
export async function downloadLabelFile(queryClient: QueryClient, url: string): Promise<void> {
  const { blob, filename } = await queryClient.fetchQuery(labelFileQuery(url));
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}
