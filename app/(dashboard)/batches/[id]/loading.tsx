import { DetailSkeleton } from "@/components/shell/page-skeletons";

export default function Loading() {
  return <DetailSkeleton />;
}
