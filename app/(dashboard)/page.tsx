import { redirect } from "next/navigation";

/** Until the overview exists (issue 11, part 2), the dashboard opens on the shipments list. */
export default function DashboardHome() {
  redirect("/shipments");
}
