import { FormSkeleton } from "@/components/shell/page-skeletons";

export default function Loading() {
  return <FormSkeleton />;
}
