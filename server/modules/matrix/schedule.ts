/**
 * A release plan's schedule (docs/domain.md §20), pure: from the plan's dates, daily time slots and
 * time zone to UTC instants, whatever the server's own `TZ`. Each account posts on each day at
 * `daily_max` of the slots (account i starts at slot i mod the number of slots, so accounts spread
 * over the slots); at each moment the media are dealt out in turn from one running counter, so
 * every media item gets its share (counts differ by at most one) and no two accounts post the
 * same video at the same moment (with more accounts at one moment than media, the extra rounds
 * are staggered a minute each). Titles go round in the same way. Moments already past are left out.
 */

const MINUTE = 60_000;

/** True when `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall-clock fields of `instant` in `tz`. */
function wallClock(instant: number, tz: string) {
  const out: Record<string, number> = {};
  for (const part of partsFormatter(tz).formatToParts(instant)) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return out as {
    year: number;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second: number;
  };
}

/** How far `tz` is ahead of UTC at `instant` (ms). */
function offsetAt(instant: number, tz: string): number {
  const w = wallClock(instant, tz);
  return (
    Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) -
    Math.floor(instant / 1000) * 1000
  );
}

/**
 * The UTC instant of the wall-clock time `date` `time` in `tz`. A time that exists twice (the
 * hour repeated when daylight saving ends) is the first; one that does not exist (the hour skipped
 * when it starts) moves forward by the gap.
 */
export function zonedInstant(date: string, time: string, tz: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const DAY = 24 * 3600_000;
  // The offsets a day before and a day after: a transition lies between them, if any.
  const before = wall - offsetAt(wall - DAY, tz);
  const after = wall - offsetAt(wall + DAY, tz);
  const shows = (t: number) => t + offsetAt(t, tz) === wall;
  if (shows(before) && shows(after)) return Math.min(before, after);
  if (shows(before)) return before;
  if (shows(after)) return after;
  return before;
}

/** The date (`YYYY-MM-DD`) it is in `tz` at `instant`. */
export function dateIn(instant: number, tz: string): string {
  const w = wallClock(instant, tz);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** True when `date` is a real calendar date (`2026-02-30` is not). */
export function isDate(date: string): boolean {
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** The dates from `start` to `end`, both included. */
export function datesBetween(start: string, end: string): string[] {
  const out: string[] = [];
  const [y, m, d] = start.split('-').map(Number);
  for (let t = Date.UTC(y, m - 1, d); ; t += 24 * 3600_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    if (date > end) break;
    out.push(date);
  }
  return out;
}

export interface ScheduleInput {
  accounts: number;
  media: number;
  titles: number;
  dates: readonly string[];
  /** Distinct `HH:mm`, sorted. */
  slots: readonly string[];
  dailyMax: number;
  timezone: string;
  /** Moments before this instant are left out. */
  notBefore: number;
}

/** One post of the schedule, by index into the plan's accounts, media and titles. */
export interface ScheduledPost {
  account: number;
  media: number;
  title: number;
  at: number;
}

/** How many posts the schedule holds (without making it). */
export function scheduleSize(input: ScheduleInput): number {
  let n = 0;
  for (const moment of moments(input)) n += moment.accounts.length;
  return n;
}

function* moments(input: ScheduleInput) {
  const perDay = Math.min(input.dailyMax, input.slots.length);
  // The accounts posting at each slot of a day (the same every day).
  const atSlot: number[][] = input.slots.map(() => []);
  for (let a = 0; a < input.accounts; a += 1) {
    for (let j = 0; j < perDay; j += 1) atSlot[(a + j) % input.slots.length].push(a);
  }
  for (const date of input.dates) {
    for (let s = 0; s < input.slots.length; s += 1) {
      if (atSlot[s].length === 0) continue;
      const at = zonedInstant(date, input.slots[s], input.timezone);
      if (at < input.notBefore) continue;
      yield { at, accounts: atSlot[s] };
    }
  }
}

/** Every post of the schedule, in time order. */
export function* schedule(input: ScheduleInput): Generator<ScheduledPost> {
  let counter = 0;
  for (const moment of moments(input)) {
    for (let i = 0; i < moment.accounts.length; i += 1) {
      yield {
        account: moment.accounts[i],
        media: counter % input.media,
        title: counter % input.titles,
        at: moment.at + Math.floor(i / input.media) * MINUTE,
      };
      counter += 1;
    }
  }
}
