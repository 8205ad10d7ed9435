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

/**
 * The fields each action's route declares secret beyond the built-in names (`audit.secret`),
 * recorded as routes are defined: the log's readers mask them in rows of any age.
 */
const declaredSecrets = new Map<string, Set<string>>();

/** Every action a route declares (the viewer's filter offers them). */
const declaredActions = new Set<string>();

export function declareAction(action: string): void {
  declaredActions.add(action);
}

export const knownActions = (): string[] => [...declaredActions].sort();

export function declareSecretFields(action: string, fields: readonly string[]): void {
  const known = declaredSecrets.get(action) ?? new Set<string>();
  for (const field of fields) known.add(field);
  declaredSecrets.set(action, known);
}

const isSecret = (action: string, field: string) =>
  SECRET.test(field) || (declaredSecrets.get(action)?.has(field) ?? false);

/** A value as a reader may see it: under an object, secret-named keys only as "changed". */
function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
      key,
      SECRET.test(key)
        ? 'changed'
        : MOBILE.test(key)
          ? maskMobile(inner)
          : redact(inner, depth + 1),
    ]),
  );
}

/**
 * A stored diff as it is read (docs/domain.md "The audit log viewer"): whatever an old row or a
 * careless writer put there, a secret field (built-in names or the action's declared ones) reads
 * only "changed", mobiles read masked, and secret-named keys inside values read "changed".
 */
export function diffForReading(action: string, stored: unknown): AuditDiff {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return {};
  const diff: AuditDiff = {};
  for (const [field, change] of Object.entries(stored as Record<string, unknown>)) {
    if (isSecret(action, field)) {
      diff[field] = 'changed';
      continue;
    }
    if (change === null || typeof change !== 'object' || Array.isArray(change)) {
      // Not a {before, after} pair: nothing of its value is shown.
      diff[field] = 'changed';
      continue;
    }
    const { before, after } = change as { before?: unknown; after?: unknown };
    const read: { before?: unknown; after?: unknown } = {};
    if ('before' in change) read.before = redact(shown(field, before));
    if ('after' in change) read.after = redact(shown(field, after));
    diff[field] = read;
  }
  return diff;
}

/** A row's free-form facts as they are read: secret-named keys only "changed", mobiles masked. */
export function detailForReading(stored: unknown): Record<string, unknown> {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return {};
  return redact(stored) as Record<string, unknown>;
}
