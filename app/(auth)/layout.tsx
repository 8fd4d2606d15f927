import { Ship } from "lucide-react";

/** Sign-in and sign-up: no navigation, one centred card. */
export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 px-4 py-12">
      <p className="flex items-center gap-2 text-lg font-semibold">
        <Ship aria-hidden className="size-6 text-primary" />
        Shipwell
      </p>
      <div className="w-full max-w-sm">{children}</div>
    </main>
  );
}
