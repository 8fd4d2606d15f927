import { DetailCard } from "@/components/shipments/detail/detail-card";
import { formatDimensions } from "@/components/shipments/detail/format";
import type { Parcel } from "@/lib/schemas/parcel";

export function ParcelsCard({ parcels }: { parcels: Parcel[] }) {
  return (
    <DetailCard title={parcels.length === 1 ? "Parcel" : `Parcels (${parcels.length})`}>
      <ol className="grid gap-2 text-sm">
        {parcels.map((p, i) => {
          const size = formatDimensions(p);
          const kind = p.package_preset ?? p.packaging_type ?? (p.is_document ? "Documents" : null);
          return (
            <li key={p.id ?? i} className="flex flex-wrap gap-x-3 gap-y-0.5">
              {parcels.length > 1 && <span className="text-muted-foreground">#{i + 1}</span>}
              <span className="font-medium">
                {p.weight} {p.weight_unit.toLowerCase()}
              </span>
              {size && <span>{size}</span>}
              {kind && <span className="text-muted-foreground">{kind}</span>}
              {(p.description ?? p.content) && (
                <span className="basis-full text-muted-foreground">{p.description ?? p.content}</span>
              )}
            </li>
          );
        })}
      </ol>
    </DetailCard>
  );
}
