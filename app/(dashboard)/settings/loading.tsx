import { ListSkeleton } from "@/components/shell/page-skeletons";

export default function Loading() {
  return <ListSkeleton tabs={false} rows={6} />;
}
