import { OverviewSkeleton } from "@/components/shell/page-skeletons";

export default function Loading() {
  return <OverviewSkeleton />;
}
