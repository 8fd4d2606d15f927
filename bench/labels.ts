/**
 * Label drawing benchmark (`npm run bench:labels`). Prints numbers; asserts nothing.
 *
 * Per format (PDF, PNG, ZPL): the first label in a fresh process (module and font loading included), then the mean
 * time per label over ROUNDS labels (wall clock, and the process's CPU time, steadier on a busy machine), and the
 * file's size; for the PDF, once with Latin text and once with an address in
 * Latin, Greek, Cyrillic, Chinese, Japanese and Korean (the fallback fonts loaded and embedded).
 *
 * Env: ROUNDS (50).
 */
import { performance } from "node:perf_hooks";
import type { LabelContent } from "@/lib/labels/content";
import { renderLabel } from "@/lib/labels/render";
import { sampleAddress, sampleLabelContent } from "@/test/label-samples";

const ROUNDS = Number(process.env.ROUNDS ?? 50);

const latin = sampleLabelContent();
const scripts = sampleLabelContent({
  recipient: sampleAddress({
    person_name: "Zoë Åström 株式会社",
    company_name: "Ελλάδα Москва 서울 とうきょう",
    address_line1: "Łódzka 5",
  }),
});

async function measure(name: string, content: LabelContent, type: "PDF" | "PNG" | "ZPL"): Promise<void> {
  let t = performance.now();
  const first = await renderLabel(content, type);
  const firstMs = performance.now() - t;
  t = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) await renderLabel(content, type);
  const meanMs = (performance.now() - t) / ROUNDS;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / ROUNDS;
  console.log(
    `${name.padEnd(12)} ${type}  first ${firstMs.toFixed(1).padStart(7)} ms  ` +
      `mean ${meanMs.toFixed(2).padStart(7)} ms/label (CPU ${cpuMs.toFixed(2).padStart(6)} ms)  ` +
      `${String(first.length).padStart(7)} bytes`,
  );
}

async function main(): Promise<void> {
  await measure("latin", latin, "PDF");
  await measure("all scripts", scripts, "PDF");
  await measure("latin", latin, "PNG");
  await measure("latin", latin, "ZPL");
}

void main();
