"use client";

import { useRouter } from "next/navigation";
import { EndpointFormDialog } from "./endpoint-form-dialog";

/** The list page's "Add endpoint" button; the list refreshes once the endpoint exists. */
export function AddEndpoint() {
  const router = useRouter();
  return <EndpointFormDialog onSaved={() => router.refresh()} />;
}
