import Link from "next/link";
import { Plus } from "lucide-react";
import { buttonVariants } from "@/components/ui/button-variants";

/** The way to a new label, as the pages' main act and their empty states offer it. */
export function CreateLabelLink() {
  return (
    <Link href="/shipments/new" className={buttonVariants()}>
      <Plus aria-hidden />
      Create label
    </Link>
  );
}
