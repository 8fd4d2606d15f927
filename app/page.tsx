export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Shipwell</h1>
      <p className="mt-3 text-slate-600">
        One API in front of many carriers. The API lives under <code className="rounded bg-slate-200 px-1">/v1</code>;
        its OpenAPI document is at{" "}
        <a className="text-blue-700 underline" href="/v1/openapi.json">
          /v1/openapi.json
        </a>
        .
      </p>
    </main>
  );
}
