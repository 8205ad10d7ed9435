import { isDeepStrictEqual } from 'node:util';

/** A record's fields as a use case reports them (a row, a body, the columns it wrote). */
export type AuditFields = Readonly<Record<string, unknown>>;

/** One field of a diff: its values around the change, or only that a secret changed. */
export type FieldChange = { before?: unknown; after?: unknown } | 'changed';

export type AuditDiff = Record<string, FieldChange>;

/**
 * Field names whose values never reach the audit log (passwords and their hashes, card
 * passwords, tokens, keys): the diff says only "changed".
 */
const SECRET =
  /password|passwd|pwd|secret|token|ticket|_hash$|api_?key|private|(^|_)(code|sig|sign|signature)$/i;
const MOBILE = /mobile|phone/i;

/** A mobile number as the console shows it to others: 138****1234. */
export function maskMobile(value: unknown): unknown {
  if (typeof value !== 'string' || value === '') return value;
  return value.length >= 7 ? `${value.slice(0, 3)}****${value.slice(-4)}` : '****';
}

const shown = (field: string, value: unknown) => (MOBILE.test(field) ? maskMobile(value) : value);

/**
 * The fields that differ between `before` and `after` (null: created, or deleted). An edit
 * compares the fields `after` names; a creation lists every field of `after`, a deletion every
 * field of `before`. `secret` names more fields to hide beyond the built-in names.
 */
export function diffOf(
  before: AuditFields | null,
  after: AuditFields | null,
  secret: readonly string[] = [],
): AuditDiff {
  const diff: AuditDiff = {};
  const fields = Object.keys(after ?? before ?? {});
  for (const field of fields) {
    const a = after?.[field];
    const b = before?.[field];
    if (after && a === undefined) continue;
    if (before && after && isDeepStrictEqual(a, b)) continue;
    if (SECRET.test(field) || secret.includes(field)) {
      diff[field] = 'changed';
      continue;
    }
    const change: FieldChange = {};
    if (before) change.before = shown(field, b ?? null);
    if (after) change.after = shown(field, a ?? null);
    diff[field] = change;
  }
  return diff;
}

/**
 * Two diffs of one call as one (a field changed twice keeps its first `before` and its last
 * `after`).
 */
export function mergeDiff(into: AuditDiff, next: AuditDiff): AuditDiff {
  for (const [field, change] of Object.entries(next)) {
    const known = into[field];
    if (known === undefined) into[field] = change;
    else if (known === 'changed' || change === 'changed') into[field] = 'changed';
    else {
      const before = 'before' in known ? known : change;
      const after = 'after' in change ? change : known;
      into[field] = {
        ...('before' in before ? { before: before.before } : {}),
        ...('after' in after ? { after: after.after } : {}),
      };
    }
  }
  return into;
}

/** Only the fields a route's declaration names (all of them when it names none). */
export function pickFields(diff: AuditDiff, fields: readonly string[] | undefined): AuditDiff {
  if (!fields) return diff;
  return Object.fromEntries(Object.entries(diff).filter(([field]) => fields.includes(field)));
}
