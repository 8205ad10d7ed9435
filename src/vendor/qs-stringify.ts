/**
 * Stands in for `qs` in the console build (build/aliases.ts). superagent's browser client
 * uses qs only to encode form bodies; the console sends JSON and builds its own query strings,
 * so qs and its dependencies (≈ 12 KB compressed) would be dead weight on the first page.
 * Flat values only: arrays repeat their key, null and undefined are left out.
 */
export function stringify(object: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(object ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined) params.append(key, String(item));
    }
  }
  return params.toString();
}

export default { stringify };
