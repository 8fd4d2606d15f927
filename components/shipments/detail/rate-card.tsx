import { DetailCard } from "@/components/shipments/detail/detail-card";
import { formatMoney } from "@/lib/client/format";
import { dayText } from "@/lib/client/format";
import type { Rate } from "@/lib/schemas/rate";

/** The rate the label was bought at: carrier, service, what it costs and what the total is made of. */
export function RateCard({ rate }: { rate: Rate }) {
  const money = (n: number) => formatMoney(n, rate.currency);
  const lines: [string, number][] = [
    ["Base charge", rate.base_charge],
    ...rate.extra_charges.map((c): [string, number] => [c.name, c.amount]),
    ...(rate.duties_and_taxes ? [["Duties and taxes", rate.duties_and_taxes] as [string, number]] : []),
    ...(rate.discount ? [["Discount", -Math.abs(rate.discount)] as [string, number]] : []),
  ];
  const delivery = rate.meta.estimated_delivery;
  return (
    <DetailCard title="Rate">
      <div className="grid gap-3 text-sm">
        <div>
          <p className="font-medium">
            {rate.carrier_name} · {rate.meta.service_name}
          </p>
          <p className="text-muted-foreground">
            <span className="font-mono text-xs">{rate.service}</span>
            {rate.transit_days > 0 && ` · ${rate.transit_days} ${rate.transit_days === 1 ? "day" : "days"} in transit`}
            {delivery && ` · delivery by ${dayText(delivery.slice(0, 10))}`}
          </p>
        </div>
        <table className="w-full text-sm">
          <caption className="sr-only">Charges</caption>
          <tbody>
            {lines.map(([name, amount], i) => (
              <tr key={`${name}-${i}`}>
                <th scope="row" className="py-0.5 text-left font-normal text-muted-foreground">
                  {name}
                </th>
                <td className="py-0.5 text-right tabular-nums">{money(amount)}</td>
              </tr>
            ))}
            <tr className="border-t">
              <th scope="row" className="pt-1.5 text-left font-semibold">
                Total
              </th>
              <td className="pt-1.5 text-right font-semibold tabular-nums">{money(rate.total_charge)}</td>
            </tr>
          </tbody>
        </table>
      </div>
    </DetailCard>
  );
}
