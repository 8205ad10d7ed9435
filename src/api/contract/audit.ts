import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { pageQuery } from './money';
import { ROLES } from './roles';
import { text } from './text';

const msg = (id: ValidationMessageId) => ({ message: id });

const queryId = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .positive(msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));
/** Epoch milliseconds (the console converts the viewer's dates). */
const time = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .min(0, msg('validation.invalid'))
  .max(8_640_000_000_000_000, msg('validation.invalid'));
/** `card.add`, `customer.edit`, …: lower-case words, underscores and dots. */
const name = text()
  .trim()
  .max(64, msg('validation.tooLong'))
  .regex(/^[a-z][a-z0-9_.]*$/, msg('validation.invalid'));

/**
 * GET /audit/list: the audit log, newest first (admin: every row; partner: the rows whose actor,
 * or whose user resource, is in its subtree — docs/architecture.md §Audit). `from` and `to` bound
 * the time, both included.
 */
const auditFilterShape = {
  /** The acting user: its id, or its username (digits match either). */
  actor: text()
    .trim()
    .min(1, msg('validation.invalid'))
    .max(64, msg('validation.tooLong'))
    .optional(),
  action: name.optional(),
  resource_type: name.optional(),
  /** A resource the call changed (rows of batch calls that include it too). */
  resource_id: queryId.optional(),
  from: time.optional(),
  to: time.optional(),
};

export const auditListQuery = z.strictObject({ ...pageQuery, ...auditFilterShape });
export type AuditListQuery = z.input<typeof auditListQuery>;
export type AuditListParams = z.output<typeof auditListQuery>;

/** The filters of the list, without paging. */
export type AuditFilter = Omit<AuditListParams, 'page' | 'limit'>;

/**
 * POST /audit/export_ticket: a single-use ticket (60 s) for the CSV of every row the filters
 * select, in the caller's scope; GET /audit/export_data?ticket= streams it.
 */
export const auditExportBody = z.strictObject(auditFilterShape);
export type AuditExportBody = z.input<typeof auditExportBody>;
export type AuditExportParams = z.output<typeof auditExportBody>;

/** GET /audit/actions: the action names the routes declare, sorted (the filter's choices). */
export const auditActionsSchema = z.object({ list: z.array(z.string()) });
export type AuditActions = z.infer<typeof auditActionsSchema>;

export const AUDIT_RESULTS = ['ok', 'refused'] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];

/** One field of a row's diff: its values around the change, or only "changed" (a secret). */
export const fieldChangeSchema = z.union([
  z.literal('changed'),
  z.object({ before: z.unknown().optional(), after: z.unknown().optional() }),
]);

export const auditRowSchema = z.object({
  id: z.number(),
  created_at: z.number(),
  /** null: an anonymous caller (a row written by a public call). */
  actor_id: z.number().nullable(),
  actor_username: z.string().nullable(),
  /** The actor's role then; null on rows written before roles were recorded. */
  actor_role: z.enum(ROLES).nullable(),
  /** Under a login-as (overstep) session: the user who stepped in. */
  original_actor_id: z.number().nullable(),
  original_actor_username: z.string().nullable(),
  action: z.string(),
  resource_type: z.string(),
  /** The resource when the call changed exactly one. */
  resource_id: z.number().nullable(),
  resource_ids: z.array(z.number()),
  /** Field → before/after (mobiles masked, secrets only "changed"). */
  diff: z.record(z.string(), fieldChangeSchema),
  /** Free-form facts (rows written before the diff existed keep theirs here). */
  detail: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
  result: z.enum(AUDIT_RESULTS),
  /** The refusal's message id (e.g. `money.insufficient`); null when ok. */
  error_code: z.string().nullable(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditPageSchema = z.object({ list: z.array(auditRowSchema), total: z.number() });
export type AuditPage = z.infer<typeof auditPageSchema>;
