import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { AddressBookPanel } from "@/components/settings/addresses/address-book-panel";
import { addressBookQuery, loadAddressBookParams } from "@/components/settings/addresses/search-params";
import { SettingsHeader } from "@/components/settings/settings-header";
import { listSavedAddresses } from "@/lib/addresses/list-saved-addresses";
import { requireSession } from "@/lib/dashboard/session";

export const metadata: Metadata = { title: "Address book" };

export default async function AddressBookSettings({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { ctx, role } = await requireSession();
  const { q } = await loadAddressBookParams(searchParams);
  const page = await listSavedAddresses({ ctx, query: addressBookQuery(q) });
  return (
    <div className="grid gap-6">
      <SettingsHeader current="addresses" role={role} />
      <AddressBookPanel addresses={page.results} count={page.count} />
    </div>
  );
}
