import type { MixMode } from '../../../src/api/contract/video-tasks';

/**
 * Which shots each output of a task uses: one shot per group, and the outputs
 * of one task are pairwise different combinations. Pure functions (the tests call them directly).
 */

/** What an output is made of: a shot (resource id) per group and its music (or none). */
export interface Combination {
  shots: number[];
  music: number | null;
}

/** Each group's distinct resource ids, in the order given (a repeated id counts once). */
export function distinctGroups(groups: readonly (readonly number[])[]): number[][] {
  return groups.map((ids) => [...new Set(ids)]);
}

/** How many different combinations the groups allow (the product of their sizes). */
export function combinationCount(groups: readonly (readonly number[])[]): number {
  return groups.reduce((product, ids) => product * ids.length, 1);
}

/** A small seeded generator (mulberry32): the same seed draws the same numbers. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `index`-th combination in mixed-radix order (the last group changes fastest). */
function nthDigits(sizes: readonly number[], index: number): number[] {
  const digits = new Array<number>(sizes.length).fill(0);
  let rest = index;
  for (let g = sizes.length - 1; g >= 0; g -= 1) {
    digits[g] = rest % sizes[g];
    rest = Math.floor(rest / sizes[g]);
  }
  return digits;
}

/**
 * `count` pairwise different picks (one index per group): `sequential` takes the first `count`
 * combinations in mixed-radix order; `random` draws distinct ones with a generator seeded by
 * `seed` (the task's id), so the same task always gets the same picks. `count` must not exceed
 * the number of combinations.
 */
export function pickDigits(
  sizes: readonly number[],
  count: number,
  mode: MixMode,
  seed: number,
): number[][] {
  const total = sizes.reduce((product, n) => product * n, 1);
  if (count > total) throw new Error(`${count} outputs asked, ${total} combinations`);
  if (mode === 'sequential') return Array.from({ length: count }, (_, i) => nthDigits(sizes, i));
  const random = seeded(seed);
  const seen = new Set<string>();
  const picks: number[][] = [];
  while (picks.length < count) {
    const digits = sizes.map((n) => Math.floor(random() * n));
    const key = digits.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    picks.push(digits);
  }
  return picks;
}

/** The combinations of a mixed task's outputs; music in turn (output i gets music i mod n). */
export function pickCombinations(
  groups: readonly (readonly number[])[],
  musicIds: readonly number[],
  count: number,
  mode: MixMode,
  seed: number,
): Combination[] {
  const sizes = groups.map((ids) => ids.length);
  return pickDigits(sizes, count, mode, seed).map((digits, i) => ({
    shots: digits.map((d, g) => groups[g][d]),
    music: musicIds.length > 0 ? musicIds[i % musicIds.length] : null,
  }));
}
