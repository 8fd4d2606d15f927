"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useApiMutation } from "@/components/forms/use-api-mutation";
import { downloadLabelFile } from "./print-label";

/**
 * Downloads a file of the API (a label, a sheet, a customs document) through the client: an ended session opens the
 * session-ended dialog and saves nothing, where a plain link would save the API's JSON error as the file. A failure
 * is a toast under `failureTitle`; nothing on the page changes, so nothing is refreshed.
 */
export function useFileDownload(failureTitle: string) {
  const queryClient = useQueryClient();
  return useApiMutation({
    request: (url: string) => downloadLabelFile(queryClient, url),
    failureTitle,
    refresh: false,
  });
}
