/**
 * Dates as the console shows and filters them, apart from the filter bar's fields so that actor
 * modules and tables using them do not load the date picker (docs/performance.md "b. Bytes").
 */

/**
 * A day range of the viewer's calendar as epoch milliseconds: from the start of `from` to the
 * last millisecond of `to` (the API's range is inclusive); '' leaves that end open.
 */
export function dayRange(from: string, to: string): { start?: number; end?: number } {
  const day = (text: string, offset: number) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + offset).getTime() : null;
  };
  const start = day(from, 0);
  const next = day(to, 1);
  return {
    ...(start !== null ? { start } : {}),
    ...(next !== null ? { end: next - 1 } : {}),
  };
}

/** Epoch milliseconds as `YYYY-MM-DD HH:mm` in the viewer's zone (docs/domain.md §2). */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
