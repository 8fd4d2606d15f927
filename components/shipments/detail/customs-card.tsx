import { CONTENT_TYPE_WORDS, DUTY_PAYER_WORDS, INCOTERM_WORDS } from "@/components/shipments/customs-words";
import { DetailCard, Facts } from "@/components/shipments/detail/detail-card";
import { formatMoney } from "@/lib/client/format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { dayText } from "@/lib/client/format";

type Stored = Record<string, unknown>;

// Stored declarations from before customs were typed may hold anything: each value is read for what it is.
const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v : null);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const record = (v: unknown): Stored => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Stored) : {});
const wordOf = <K extends string>(words: Record<K, string>, v: unknown) => {
  const key = text(v);
  return key === null ? null : Object.hasOwn(words, key) ? words[key as K] : key;
};

function commodityRow(c: Stored) {
  const value = num(c.value_amount);
  const currency = text(c.value_currency);
  const weight = num(c.weight);
  return {
    description: text(c.description) ?? "—",
    quantity: num(c.quantity),
    value: value === null ? null : currency ? formatMoney(value, currency) : String(value),
    weight: weight === null ? null : `${weight} ${(text(c.weight_unit) ?? "").toLowerCase()}`.trim(),
    hsCode: text(c.hs_code),
    origin: text(c.origin_country),
    sku: text(c.sku),
  };
}

/** The customs declaration the shipment holds, read-only: what it is, who pays duties, and its items. */
export function CustomsCard({ customs }: { customs: Stored }) {
  const duty = record(customs.duty);
  const incoterm = text(customs.incoterm);
  const incotermWords = wordOf(INCOTERM_WORDS, incoterm);
  const invoiceDate = text(customs.invoice_date);
  const invoice = [text(customs.invoice), invoiceDate && dayText(invoiceDate.slice(0, 10))].filter(Boolean).join(", ");
  const signer = text(customs.signer);
  const facts: [string, React.ReactNode][] = [
    ["Content type", wordOf(CONTENT_TYPE_WORDS, customs.content_type) ?? "—"],
    ...(text(customs.content_description) ? [["Contents", text(customs.content_description)] as [string, string]] : []),
    ["Incoterm", incoterm ? (incotermWords !== incoterm ? `${incoterm} (${incotermWords})` : incoterm) : "—"],
    [
      "Duties paid by",
      [wordOf(DUTY_PAYER_WORDS, duty.paid_by) ?? "—", text(duty.account_number)].filter(Boolean).join(", account "),
    ],
    ...(invoice ? [["Invoice", invoice] as [string, string]] : []),
    ...(customs.commercial_invoice === true ? [["Invoice sent", "Electronically"] as [string, string]] : []),
    ...(customs.certify === true ? [["Certified by", signer ?? "—"] as [string, string]] : []),
  ];
  const items = (Array.isArray(customs.commodities) ? customs.commodities : []).map((c) => commodityRow(record(c)));
  return (
    <DetailCard title="Customs">
      <div className="grid gap-4">
        <Facts items={facts} />
        {items.length > 0 && (
          <Table>
            <caption className="sr-only">Items declared</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Item</TableHead>
                <TableHead className="text-right">Qty</TableHead>
                <TableHead className="text-right">Unit value</TableHead>
                <TableHead className="text-right">Unit weight</TableHead>
                <TableHead>HS code</TableHead>
                <TableHead>Origin</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((item, i) => (
                <TableRow key={i}>
                  <TableCell>
                    {item.description}
                    {item.sku && <span className="block text-xs text-muted-foreground">SKU {item.sku}</span>}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{item.quantity ?? "—"}</TableCell>
                  <TableCell className="text-right tabular-nums">{item.value ?? "—"}</TableCell>
                  <TableCell className="text-right tabular-nums">{item.weight ?? "—"}</TableCell>
                  <TableCell className="font-mono text-xs">{item.hsCode ?? "—"}</TableCell>
                  <TableCell>{item.origin ?? "—"}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </div>
    </DetailCard>
  );
}
