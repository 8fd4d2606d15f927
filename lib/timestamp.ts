/** An instant as the API writes it (docs/api.md, "Conventions"): `YYYY-MM-DD HH:MM:SS.ffffff+00:00`, UTC. */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString(); // 2026-11-21T04:29:43.123Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000+00:00`;
}
