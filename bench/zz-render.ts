import { writeFileSync } from "node:fs";
import { renderPdfLabel } from "@/lib/labels/pdf";
import { renderPngLabel } from "@/lib/labels/png";
import { sampleAddress, sampleLabelContent } from "@/test/label-samples";
async function main() {
  const c = sampleLabelContent({
    recipient: sampleAddress({
      person_name: "Zoë Åström 株式会社 Ελλάδα Москва",
      company_name: "서울 とうきょう Łódź Ősz",
      address_line1: "1234 Exceptionally Long Boulevard Northwest Apartment Complex",
    }),
    shipper: sampleAddress({ address_line1: "1234 Exceptionally Long Boulevard Northwest Apartment Complex" }),
    reference: "ORDER-2024-000123456789-ABCDEF",
  });
  writeFileSync("/tmp/lt-label.pdf", await renderPdfLabel(c));
  writeFileSync("/tmp/lt-label.png", renderPngLabel(c));
}
void main();
