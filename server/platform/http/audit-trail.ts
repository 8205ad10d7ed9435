import type { FastifyInstance } from 'fastify';
import type { Role } from '../../../src/api/contract/roles';
import type { AuditResult, Db, Executor } from '../db/schema';
import { diffOf, mergeDiff, pickFields, type AuditDiff, type AuditFields } from './audit-diff';

/** The resource id(s) of a call: one, several, or none known. */
export type AuditIds = number | readonly number[] | null | undefined;

/** The caller as a declaration sees it (the policy's AuthContext has it). */
export interface AuditCaller {
  user: { id: number };
  role: Role;
}

/** The validated input (and the caller) an audit declaration reads ids and fields from. */
export interface AuditInput<B, Q> {
  body: B;
  query: Q;
  auth: AuditCaller | null;
}

/**
 * What a state-changing route records (docs/architecture.md §Audit): one row per call, written
 * in the transaction that commits the change.
 */
export interface AuditSpec<B = unknown, Q = unknown> {
  /** `<area>.<verb>`, e.g. `card.add`. */
  action: string;
  /** The type of the resource the call changes: `user`, `card`, `resource`, … */
  resource: string;
  /**
   * Its id(s): read from the input, or `'result'`: what the committed work returned (a number,
   * an array of numbers, or an object with `id` or `ids`). Use cases may add ids
   * (`audit.target`).
   */
  id?: ((input: AuditInput<B, Q>) => AuditIds) | 'result';
  /** A diff read from the input (use cases report the rest with `audit.change`). */
  diff?: (input: AuditInput<B, Q>) => { before?: AuditFields | null; after?: AuditFields | null };
  /** The fields the diff keeps (default: every field reported). */
  fields?: readonly string[];
  /** Fields shown only as "changed", beyond the built-in secret names (passwords, tokens…). */
  secret?: readonly string[];
}

/** A route that changes nothing worth auditing, and why (`audit: { none: 'reads only' }`). */
export interface NoAudit {
  none: string;
}

export type AuditDeclaration<B = unknown, Q = unknown> = AuditSpec<B, Q> | NoAudit;

export const isNoAudit = (declaration: AuditDeclaration<never, never>): declaration is NoAudit =>
  'none' in declaration;

/** The caller as the row records it. */
export interface AuditActor {
  id: number;
  role: Role;
  /** The user behind a login-as (overstep) session. */
  originalId?: number | null;
}

/** What a row records of the request (a FastifyRequest has it). */
export interface AuditRequest {
  ip: string;
  id: string;
  headers: { 'user-agent'?: string | string[] };
}

/** The app's settings of the audit trail (installAudit). */
export interface AuditSettings {
  db: Db;
  now: () => number;
  /** A successful audited call that wrote no row fails (500) instead of only being logged. */
  strict: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    auditing: AuditSettings;
  }
  interface FastifyRequest {
    /** The trail of a defineRoute call once its input is parsed. */
    auditTrail: AuditTrail | null;
  }
}

export function installAudit(app: FastifyInstance, settings: AuditSettings): void {
  app.decorate('auditing', settings);
  app.decorateRequest('auditTrail', null);
}

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

function idList(ids: AuditIds): number[] {
  if (ids === null || ids === undefined) return [];
  return (typeof ids === 'number' ? [ids] : [...ids]).map(Number).filter(isId);
}

function idsOfResult(result: unknown): number[] {
  if (typeof result === 'number') return idList(result);
  if (Array.isArray(result)) return idList(result as number[]);
  if (result && typeof result === 'object') {
    const { id, ids } = result as { id?: unknown; ids?: unknown };
    if (isId(id)) return [id];
    if (Array.isArray(ids)) return idList(ids as number[]);
  }
  return [];
}

const USER_AGENT_MAX = 512;

/**
 * The audit trail of one call, built by the route layer and handed to the use case, which passes
 * it to the function that commits its change (`runInTransaction`, the ledger's `runMoney`): that
 * function calls `commit` inside its transaction after the work, so the row commits or rolls back
 * with the change. Inside the work the use case reports what only it knows: ids (`target`) and
 * the values around the change (`change`). A call that succeeded without changing anything says
 * so (`unchanged`); any other success without a row is a bug the route layer reports.
 */
export class AuditTrail {
  state: 'open' | 'written' | 'unchanged' = 'open';
  private ids: number[];
  private diff: AuditDiff = {};
  /** The session's user; on a public route, whom the use case names (`actAs`). */
  private actor: AuditActor | null;
  private readonly sessionActor: AuditActor | null;
  private checkpoint: { ids: number[]; diff: AuditDiff } | null = null;

  constructor(
    /** null: the route audits nothing (`none`, or a read). */
    readonly spec: AuditSpec<never, never> | null,
    actor: AuditActor | null,
    private readonly request: AuditRequest,
    private readonly now: () => number,
    parsed?: AuditInput<unknown, unknown>,
  ) {
    this.actor = actor;
    this.sessionActor = actor;
    const input = parsed as AuditInput<never, never> | undefined;
    this.ids = spec && input && typeof spec.id === 'function' ? idList(spec.id(input)) : [];
    const declared = spec && input && spec.diff?.(input);
    if (declared) this.change(declared.before ?? null, declared.after ?? null);
  }

  /** The resource ids the call changed, when only the use case knows them (created rows). */
  target(...ids: number[]): void {
    for (const id of idList(ids)) if (!this.ids.includes(id)) this.ids.push(id);
  }

  /** The values around a change (null before: created; null after: deleted). */
  change(before: AuditFields | null, after: AuditFields | null): void {
    if (!this.spec) return;
    mergeDiff(this.diff, diffOf(before, after, this.spec.secret));
  }

  /** Who acts on a public route, once the use case knows (the holder of a reset code). */
  actAs(actor: AuditActor): void {
    this.actor ??= actor;
  }

  /** The call succeeded and changed nothing: no row (a replayed idempotent request, an empty edit). */
  unchanged(): void {
    if (this.state === 'open') this.state = 'unchanged';
  }

  /**
   * A transaction (attempt) starts: what the work reports from here is forgotten if it is run
   * again (a retried deadlock reports everything again).
   */
  begin(): void {
    if (!this.checkpoint) this.checkpoint = { ids: [...this.ids], diff: { ...this.diff } };
    else {
      this.ids = [...this.checkpoint.ids];
      this.diff = { ...this.checkpoint.diff };
    }
    if (this.state === 'unchanged') this.state = 'open';
  }

  /** Writes the `ok` row in the transaction `db` (after the work, with the work's result). */
  async commit(db: Executor, result?: unknown): Promise<void> {
    if (!this.spec) return;
    if (this.state === 'written') {
      throw new Error(`audit row of ${this.spec.action} written twice`);
    }
    if (this.state === 'unchanged') return; // the work said it changed nothing
    if (this.spec.id === 'result') this.target(...idsOfResult(result));
    await this.write(db, 'ok', null);
    this.state = 'written';
  }

  /**
   * Writes the `refused` row of a refusal (nothing changed: on its own, outside any transaction),
   * for a caller with a session only: anonymous refusals (a wrong reset code) would let anyone
   * fill the table, and a user named by `actAs` may be one the refusal rolled back.
   */
  async refused(db: Executor, code: string): Promise<void> {
    if (!this.spec || !this.sessionActor || this.state === 'written') return;
    this.diff = {};
    this.actor = this.sessionActor;
    await this.write(db, 'refused', code);
  }

  private async write(db: Executor, result: AuditResult, code: string | null): Promise<void> {
    const spec = this.spec!;
    const agent = this.request.headers['user-agent'];
    await db
      .insertInto('audit_log')
      .values({
        actor_id: this.actor?.id ?? null,
        actor_role: this.actor?.role ?? null,
        original_actor_id: this.actor?.originalId ?? null,
        action: spec.action,
        target_type: spec.resource,
        target_id: this.ids.length === 1 ? this.ids[0] : null,
        target_ids: JSON.stringify(this.ids),
        diff: JSON.stringify(pickFields(this.diff, spec.fields)),
        ip: this.request.ip,
        user_agent: typeof agent === 'string' ? agent.slice(0, USER_AGENT_MAX) : null,
        request_id: this.request.id,
        result,
        error_code: code,
        created_at: this.now(),
      })
      .execute();
  }
}
