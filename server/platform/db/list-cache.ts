import type { OperationNodeSource } from 'kysely';
import { listSourceOf, type ListSource } from './list-source';
import type { Executor } from './schema';
import type { WriteVersions } from './write-versions';

/**
 * How long (real time) a total is trusted without a write seen: bounds the effect of writes by
 * other processes (several servers on one PostgreSQL database). Not on SQLite, where the
 * database says when another connection wrote (`externalWrites`).
 */
export const LIST_CACHE_TTL_MS = 5_000;
/**
 * Rows between two page anchors: a deep page skips fewer rows than this. Anchors are found when a
 * page first needs one, so a small step costs nothing for pages nobody opens; at 20 (the default
 * page size) a page starts at its own anchor and skips nothing (a skipped row still costs its
 * joins: 20 % of a deep card page's time with a step of 200, docs/performance.md).
 */
export const ANCHOR_EVERY = 20;
const MAX_ENTRIES = 2_000;

interface Entry {
  version: string;
  /** Date.now() after which the entry is computed again (writes of other processes). */
  stale: number;
  /** ctx.now() from which the total no longer holds by itself (time-dependent conditions). */
  until?: number;
  total?: Promise<number>;
  /** anchor k → the sort key of row k × ANCHOR_EVERY (undefined: past the end). */
  anchors: Map<number, Promise<number | undefined>>;
  /** Every sort key of a short list, in its order (undefined: more than MAX_KEYS). */
  keys?: Promise<Float64Array | undefined>;
}

/**
 * The longest list whose sort keys are kept (`ListCache.keys`): 16 KB a list, so the cache's
 * MAX_ENTRIES lists stay within 32 MB.
 */
export const MAX_KEYS = 2_000;

/**
 * Totals and page anchors of list queries, per database handle (docs/decisions.md "List totals,
 * deep pages and the speed bench"). A total is counted once and reused while no write could have changed it; a
 * deep page starts from an anchor (the id of every ANCHOR_EVERY-th row) instead of skipping every
 * row before it. Concurrent requests for the same missing value share one computation.
 */
export class ListCache {
  private readonly entries = new Map<string, Entry>();
  /** key → the list's source, read once from its query (the key names the conditions). */
  private readonly sources = new Map<string, ListSource>();

  /**
   * `externalWrites`: a value that changes when another connection commits to the database
   * (SQLite's `PRAGMA data_version`). With it, an entry holds until a write, however long: no
   * total or deep anchor is counted again every few seconds (100 000 cards: a 12 ms count on the
   * event loop) when nothing changed.
   */
  constructor(
    private readonly versions: WriteVersions,
    private readonly externalWrites?: () => unknown,
  ) {}

  /**
   * A value that changes with every write of `sources` through this handle and, on SQLite, with
   * every commit of another connection (other processes): what a cache of values derived from
   * these tables keys its entries by (get_system_info, docs/domain.md §12).
   */
  versionOf(sources: readonly { table: string; columns: readonly string[] }[]): string {
    const ours = sources.map((s) => this.versions.versionOf(s.table, s.columns)).join(' ');
    return this.externalWrites ? `${ours} ${String(this.externalWrites())}` : ours;
  }

  /** Whether writes of other processes show in `versionOf` (else bound them by time). */
  get seesExternalWrites(): boolean {
    return this.externalWrites !== undefined;
  }

  /** The source of the list `key`, derived from its filtered query the first time. */
  sourceOf(key: string, filtered: () => OperationNodeSource): ListSource {
    let source = this.sources.get(key);
    if (!source) {
      if (this.sources.size >= MAX_ENTRIES) this.sources.clear();
      this.sources.set(key, (source = listSourceOf(filtered())));
    }
    return source;
  }

  private entry(key: string, source: ListSource, now: number): Entry {
    let ours = this.versions.versionOf(source.table, source.columns);
    for (const other of source.joined ?? []) {
      ours += ` ${this.versions.versionOf(other.table, other.columns)}`;
    }
    const version = this.externalWrites ? `${ours} ${String(this.externalWrites())}` : ours;
    let entry = this.entries.get(key);
    const outdated = (e: Entry) =>
      e.version !== version || Date.now() >= e.stale || (e.until !== undefined && now >= e.until);
    if (entry) this.entries.delete(key); // re-inserted below: the Map's order is the recency
    if (entry && outdated(entry)) entry = undefined;
    if (!entry) {
      const stale = this.externalWrites ? Infinity : Date.now() + LIST_CACHE_TTL_MS;
      entry = { version, stale, anchors: new Map() };
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, entry);
    return entry;
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }

  /**
   * The list's total. `count` may also say until when (on the clock of `now`) the total holds by
   * itself, for conditions that depend on the time (e.g. cards that expire).
   */
  total(
    key: string,
    source: ListSource,
    now: number,
    count: () => Promise<{ total: number; until?: number }>,
  ): Promise<number> {
    const entry = this.entry(key, source, now);
    if (!entry.total) {
      entry.total = count().then(
        ({ total, until }) => {
          if (until !== undefined) entry.until = until;
          return total;
        },
        (error: unknown) => {
          this.forget(key, entry);
          throw error;
        },
      );
    }
    return entry.total;
  }

  /** The sort key of row `k × ANCHOR_EVERY` of the list (in its order), from `find` once. */
  anchor(
    key: string,
    source: ListSource,
    now: number,
    k: number,
    find: (offset: number) => Promise<number | undefined>,
  ): Promise<number | undefined> {
    const entry = this.entry(key, source, now);
    let anchor = entry.anchors.get(k);
    if (!anchor) {
      anchor = find(k * ANCHOR_EVERY).catch((error: unknown) => {
        entry.anchors.delete(k);
        throw error;
      });
      entry.anchors.set(k, anchor);
    }
    return anchor;
  }

  /**
   * Every sort key of the list `key` (in its order) when it has at most MAX_KEYS rows, found
   * once per state of its source: a filter that reads every row to find a few (a keyword in
   * names) then costs one pass, and each page only its own rows. `find(max)` answers at most
   * `max` keys; more than MAX_KEYS found: undefined (the list pages as any other).
   */
  keys(
    key: string,
    source: ListSource,
    now: number,
    find: (max: number) => Promise<number[]>,
  ): Promise<Float64Array | undefined> {
    const entry = this.entry(key, source, now);
    if (!entry.keys) {
      entry.keys = find(MAX_KEYS + 1).then(
        (found) => (found.length > MAX_KEYS ? undefined : Float64Array.from(found)),
        (error: unknown) => {
          this.forget(key, entry);
          throw error;
        },
      );
    }
    return entry.keys;
  }
}

const caches = new WeakMap<object, ListCache>();

/** Gives a database handle's Kysely instance its list cache (openDatabase does). */
export function attachListCache(
  db: Executor,
  versions: WriteVersions,
  externalWrites?: () => unknown,
): void {
  caches.set(db, new ListCache(versions, externalWrites));
}

/** The handle's list cache; none for a transaction (it may see its own uncommitted writes). */
export function listCacheOf(db: Executor): ListCache | undefined {
  return caches.get(db);
}

/** Where a page starts: after the key `from` (inclusive) when set, skipping `skip` rows. */
export interface PageStart {
  from?: number;
  skip: number;
  /** The list has no row at this offset: the page is empty. */
  empty?: boolean;
}

/**
 * Where a page of a list ordered by a unique key starts: the anchor at or before `offset` and the
 * rows to skip after it. `find(offset)` reads the key of the row at an offset (undefined past the
 * end).
 */
async function pageStart(
  cache: ListCache,
  key: string,
  source: ListSource,
  now: number,
  offset: number,
  find: (offset: number) => Promise<number | undefined>,
): Promise<PageStart> {
  const k = Math.floor(offset / ANCHOR_EVERY);
  if (k === 0) return { skip: offset };
  const from = await cache.anchor(key, source, now, k, find);
  const skip = offset - k * ANCHOR_EVERY;
  return from === undefined ? { skip, empty: true } : { from, skip };
}

/** One page of a list read through the handle's cache (any list: cards, customers, money). */
export interface CachedPage<R> {
  /** The viewer's scope and the filter (not the page): names the total and the anchors. */
  key: string;
  /**
   * The list's query with its conditions (FROM, joins, WHERE): which writes outdate the total and
   * the anchors is read from it (db/list-source.ts), once per key.
   */
  filtered: () => OperationNodeSource;
  /** The clock of the list's own time-dependent conditions (`count` may return `until`). */
  now: number;
  offset: number;
  /**
   * The sort key of the row at an offset, for lists in the order of a unique key: deep pages then
   * start from anchors. Without it the page reads plain `offset`.
   */
  keyAt?: (offset: number) => Promise<number | undefined>;
  /** The anchors' name when it must say more than `key` (e.g. the order). */
  anchorKey?: string;
  /** The page's rows from where it starts (never asked past the end). */
  rows: (start: PageStart) => Promise<R[]>;
  count: () => Promise<{ total: number; until?: number }>;
  /**
   * For filters that read every row to find a few (a keyword): the sort keys of the matching
   * rows in the list's order, at most `max` of them, and the rows of some keys (in that order,
   * meeting the list's conditions). A short list (≤ MAX_KEYS) then pages from its cached keys.
   */
  byKeys?: {
    find: (max: number) => Promise<number[]>;
    rows: (keys: number[]) => Promise<R[]>;
    limit: number;
  };
}

/** A page's rows and the list's total, both through the cache when the handle has one. */
export async function readPage<R>(
  db: Executor,
  page: CachedPage<R>,
): Promise<{ rows: R[]; total: number }> {
  const cache = listCacheOf(db);
  if (!cache) {
    const [rows, total] = await Promise.all([
      page.rows({ skip: page.offset }),
      page.count().then((r) => r.total),
    ]);
    return { rows, total };
  }
  const source = cache.sourceOf(page.key, page.filtered);
  if (page.byKeys) {
    const keys = await cache.keys(`${page.key} keys`, source, page.now, page.byKeys.find);
    if (keys) {
      const slice = Array.from(keys.subarray(page.offset, page.offset + page.byKeys.limit));
      return { rows: slice.length > 0 ? await page.byKeys.rows(slice) : [], total: keys.length };
    }
  }
  const start = page.keyAt
    ? pageStart(cache, page.anchorKey ?? page.key, source, page.now, page.offset, page.keyAt)
    : Promise.resolve<PageStart>({ skip: page.offset });
  const [rows, total] = await Promise.all([
    start.then((at) => (at.empty ? [] : page.rows(at))),
    cache.total(page.key, source, page.now, page.count),
  ]);
  return { rows, total };
}
