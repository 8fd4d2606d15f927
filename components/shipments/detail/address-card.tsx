import { DetailCard } from "@/components/shipments/detail/detail-card";
import type { Address } from "@/lib/schemas/address";

/** An address as it is written on a parcel, then the contact details a carrier may call. */
export function AddressCard({ title, address }: { title: string; address: Address }) {
  const cityLine = [address.city, [address.state_code, address.postal_code].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  const lines = [
    address.person_name,
    address.company_name,
    address.address_line1,
    address.address_line2,
    address.suburb,
    cityLine,
    address.country_code,
  ].filter((line): line is string => Boolean(line));
  return (
    <DetailCard title={title}>
      <address className="grid gap-0.5 text-sm not-italic">
        {lines.map((line, i) => (
          <span key={i} className={i === 0 ? "font-medium" : undefined}>
            {line}
          </span>
        ))}
      </address>
      {(address.phone_number || address.email || address.residential) && (
        <p className="mt-2 grid gap-0.5 text-sm text-muted-foreground">
          {address.phone_number && <span>{address.phone_number}</span>}
          {address.email && <span className="break-all">{address.email}</span>}
          {address.residential && <span>Residential address</span>}
        </p>
      )}
    </DetailCard>
  );
}
