"use client";

import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { toast } from "@/components/ui/toaster";
import { problemText } from "@/lib/client/problems";

export interface ApiMutationOptions<TInput, TResult> {
  /** The request: `apiFetch("/v1/…")` for the API, or a server action or an account call. */
  request: (input: TInput) => Promise<TResult>;
  /** The toast after it worked ("Key revoked."); none when left out. */
  success?: string | ((result: TResult, input: TInput) => string);
  /**
   * Where a failure is shown: "toast" (the default, for buttons), or "caller" for forms, which place the API's
   * field errors on their fields instead (useApiForm).
   */
  failure?: "toast" | "caller";
  /** The toast's title on failure, the reason below it ("The label could not be printed."); else the reason alone. */
  failureTitle?: string;
  /** Re-render the page's server components (the list the act changed); on by default. */
  refresh?: boolean;
  onSuccess?: (result: TResult, input: TInput) => void;
}

/**
 * The dashboard's one way to change something: the request, then a toast and a refresh of the server-rendered page
 * on success; on failure one sentence (an ended session says so, never the API's request for an API key).
 */
export function useApiMutation<TInput = void, TResult = unknown>(options: ApiMutationOptions<TInput, TResult>) {
  const router = useRouter();
  const { request, success, failure = "toast", failureTitle, refresh = true, onSuccess } = options;
  return useMutation<TResult, unknown, TInput>({
    mutationFn: request,
    onSuccess: (result, input) => {
      if (success) toast.success(typeof success === "string" ? success : success(result, input));
      if (refresh) router.refresh();
      onSuccess?.(result, input);
    },
    onError: (error) => {
      if (failure !== "toast") return;
      if (failureTitle) toast.error(failureTitle, { description: problemText(error) });
      else toast.error(problemText(error));
    },
  });
}
