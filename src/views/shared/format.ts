/** A duration in seconds as the player shows it: "m:ss" → "01:05", "1:02:03" from an hour. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** A 0–100 figure as a whole percent within bounds. */
export function wholePercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** Seconds with one decimal ("2.5 s" style figures): 2 → "2.0", 2.46 → "2.5". */
export function formatSeconds(seconds: number): string {
  return (Math.round(Math.max(0, seconds) * 10) / 10).toFixed(1);
}
