/** Epoch milliseconds. Injected so tests can move time (session expiry, throttling, SMS codes). */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** Start of the current day in the platform's business time zone (Asia/Shanghai, UTC+8, no DST). */
export function startOfBusinessDay(now: number): number {
  const offset = 8 * 60 * 60 * 1000;
  const day = 24 * 60 * 60 * 1000;
  return Math.floor((now + offset) / day) * day - offset;
}
