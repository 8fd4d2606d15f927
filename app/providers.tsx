"use client";

import { QueryClient, QueryClientProvider, isServer } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { Toaster } from "@/components/ui/toaster";

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Pages render their first view on the server; refetching it the moment it hydrates would only repeat that work.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/**
 * One client per browser session, kept outside React so a suspense boundary that remounts the tree does not drop
 * the cache; on the server, one per request, so no user's data is shared with another's.
 */
function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

export function Providers({ children }: { children: React.ReactNode }) {
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      {/*
        First in the document, so the toasts are the first Tab stops of the cycle rather than the last. Sonner sends
        the focus back to where it entered its toasts from when Tab leaves them; entered from the page's last control
        ("Open tracker" after a purchase), that made Tab loop between the two. Entered from the top of the cycle, Tab
        leaving them goes on into the page.
      */}
      <Toaster />
      <NuqsAdapter>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
