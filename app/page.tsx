import { InlineCode } from "@/components/ui/inline-code";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Shipwell</h1>
      <p className="mt-3 text-slate-600">
        One API in front of many carriers. The API lives under <InlineCode>/v1</InlineCode>; its OpenAPI document is at{" "}
        <a className="text-blue-700 underline" href="/v1/openapi.json">
          /v1/openapi.json
        </a>
        .
      </p>
      <p className="mt-3 text-slate-600">
        Authenticate with <InlineCode>Authorization: Token &lt;API_KEY&gt;</InlineCode>. The first key is printed in the
        server log on first start; more come from <InlineCode>npm run cli -- keys create --name …</InlineCode>.
      </p>
    </main>
  );
}
