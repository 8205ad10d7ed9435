import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Envelope } from '../../../src/api/contract/envelope';
import { ReplyCode } from '../../../src/api/contract/envelope';
import { t, type MessageId } from '../i18n';
import { declareAction, declareSecretFields } from './audit-diff';
import {
  AuditTrail,
  isNoAudit,
  type AuditActor,
  type AuditDeclaration,
  type AuditInput,
} from './audit-trail';
import { AppError } from './errors';
import { JsonText } from './json-text';
import type { AuthContext, Policy } from './policy';
import type { RouteDoc } from './route-doc';
import { parseInput } from './validation';

/** Replies from this length on are compressed (@fastify/compress's default threshold). */
const COMPRESS_FROM = 1024;

/** Calls without a payload accept no body (or `{}`) and no query parameters. */
const nothing = z.strictObject({}).optional();

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P extends Policy, B, Q> {
  body: Output<B>;
  query: Output<Q>;
  /** The caller; null only on public routes. */
  auth: P['roles'] extends 'public' ? AuthContext | null : AuthContext;
  request: FastifyRequest;
  reply: FastifyReply;
  /**
   * The call's audit trail: hand it to the function that commits the change (`runInTransaction`,
   * `runMoney`), which writes the row in its transaction (docs/architecture.md §Audit).
   */
  audit: AuditTrail;
}

/** What a handler may return for the reply schema `R`: its data, or that data as JSON text. */
type ReplyData<R> = R extends z.ZodNull
  ? void | null
  : R extends z.ZodType
    ? z.input<R> | JsonText<z.input<R>>
    : unknown;

interface RouteFields<
  P extends Policy,
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  R extends z.ZodType,
> {
  /** Relative to the API prefix, e.g. `/platform/login`. */
  url: string;
  policy: P;
  body?: B;
  query?: Q;
  /** `data` of a successful reply (`noData` from the contract for `data: null`). */
  reply: R;
  /** `msg` of a successful reply (default "Success"). */
  successMessage?: MessageId;
  /** The body is not JSON (a multipart form the handler reads itself): its content type. */
  bodyType?: string;
  handler: (input: RouteInput<P, B, Q>) => Promise<ReplyData<R>>;
}

/**
 * A POST must say what it audits, or why nothing (`{ none: 'reads only' }`); a GET only when it
 * changes state. tests/server/audit-declarations.test.ts checks every registered route.
 */
type AuditOf<B, Q> =
  | { method: 'POST'; audit: AuditDeclaration<Output<B>, Output<Q>> }
  | { method: 'GET'; audit?: AuditDeclaration<Output<B>, Output<Q>> };

export type RouteDefinition<
  P extends Policy,
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  R extends z.ZodType,
> = RouteFields<P, B, Q, R> & AuditOf<B, Q>;

function actorOf(auth: AuthContext | null): AuditActor | null {
  if (!auth) return null;
  const { user, role, session } = auth;
  return {
    id: user.id,
    role,
    originalId: session.kind === 'overstep' ? session.overstep_by : null,
  };
}

/** The trail of a call (a trail that records nothing when the route audits nothing). */
function trailOf(
  request: FastifyRequest,
  declaration: AuditDeclaration<never, never> | undefined,
  input?: AuditInput<unknown, unknown>,
): AuditTrail {
  const spec = declaration && !isNoAudit(declaration) ? declaration : null;
  return new AuditTrail(spec, actorOf(request.auth), request, request.server.auditing.now, input);
}

/**
 * A refused call's row (its own, outside any transaction: nothing changed). Only refusals of a
 * known caller: anonymous refusals (a wrong reset code) would let anyone fill the table.
 */
async function auditRefusal(
  request: FastifyRequest,
  declaration: AuditDeclaration<never, never> | undefined,
  error: unknown,
): Promise<void> {
  if (!(error instanceof AppError) || error.httpStatus >= 500) return;
  const trail = request.auditTrail ?? trailOf(request, declaration);
  try {
    await trail.refused(request.server.auditing.db, error.messageId);
  } catch (failure) {
    request.log.error({ err: failure, reqId: request.id }, 'audit row of a refusal not written');
  }
}

/** A successful audited call must have written its row (or said it changed nothing). */
function checkWritten(request: FastifyRequest, trail: AuditTrail): void {
  if (!trail.spec || trail.state !== 'open') return;
  const problem = `${request.method} ${request.url.split('?')[0]} succeeded without writing its audit row (${trail.spec.action})`;
  request.log.error({ reqId: request.id }, problem);
  if (request.server.auditing.strict) throw new Error(problem);
}

/**
 * Registers one API call: policy in `config.policy` (enforced by the onRequest hook), body and
 * query validated with the contract's zod schemas, the result wrapped in `{code: 1, msg, data}`,
 * and its audit declaration in `config.audit`: the handler gets the call's audit trail, a refusal
 * writes a `refused` row, a success that wrote no row is reported (docs/architecture.md §Audit).
 */
export function defineRoute<
  const P extends Policy,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(app: FastifyInstance, def: RouteDefinition<P, B, Q, R>): void {
  const doc: RouteDoc = {
    body: def.body,
    query: def.query,
    reply: def.reply,
    ...(def.bodyType ? { bodyType: def.bodyType } : {}),
  };
  const audit = def.audit as AuditDeclaration<never, never> | undefined;
  // Readers of the log mask the declared secret fields in rows of any age (audit-diff.ts).
  if (audit && !isNoAudit(audit)) {
    declareAction(audit.action);
    if (audit.secret) declareSecretFields(audit.action, audit.secret);
  }
  app.route({
    method: def.method,
    url: def.url,
    exposeHeadRoute: false,
    config: { policy: def.policy, input: { body: def.body, query: def.query }, doc, audit },
    // Also for refusals before the handler: the policy's 403, invalid input.
    onError: async (request, _reply, error) => auditRefusal(request, audit, error),
    handler: async (request, reply): Promise<string | Buffer> => {
      const locale = request.locale;
      const body = parseInput(def.body ?? nothing, request.body, locale) as Output<B>;
      const query = parseInput(def.query ?? nothing, request.query, locale) as Output<Q>;
      const auth = request.auth as RouteInput<P, B, Q>['auth'];
      const trail = trailOf(request, audit, { body, query, auth: request.auth });
      request.auditTrail = trail;
      const data = await def.handler({ body, query, auth, request, reply, audit: trail });
      checkWritten(request, trail);
      const msg = t(locale, def.successMessage ?? 'common.ok');
      const text =
        data instanceof JsonText
          ? `{"code":${ReplyCode.SUCCESS},"msg":${JSON.stringify(msg)},"data":${data.text}}`
          : JSON.stringify({
              code: ReplyCode.SUCCESS,
              msg,
              data: data ?? null,
            } satisfies Envelope<unknown>);
      // Written here rather than by Fastify (the same JSON.stringify) so that a list's reply goes
      // out as bytes: given a string, the compression hook measures its UTF-8 length before
      // encoding it anyway (17 µs for a 14 KB page with Chinese text). JSON text is sent as it is.
      reply.type('application/json; charset=utf-8');
      return text.length < COMPRESS_FROM ? text : Buffer.from(text);
    },
  });
}
