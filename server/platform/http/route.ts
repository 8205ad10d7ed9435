import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Envelope } from '../../../src/api/contract/envelope';
import { ReplyCode } from '../../../src/api/contract/envelope';
import { t, type MessageId } from '../i18n';
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
}

/** What a handler may return for the reply schema `R`: its data, or that data as JSON text. */
type ReplyData<R> = R extends z.ZodNull
  ? void | null
  : R extends z.ZodType
    ? z.input<R> | JsonText<z.input<R>>
    : unknown;

export interface RouteDefinition<
  P extends Policy,
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  R extends z.ZodType,
> {
  method: 'GET' | 'POST';
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
 * Registers one API call: policy in `config.policy` (enforced by the onRequest hook), body and
 * query validated with the contract's zod schemas, the result wrapped in `{code: 1, msg, data}`.
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
  app.route({
    method: def.method,
    url: def.url,
    exposeHeadRoute: false,
    config: { policy: def.policy, input: { body: def.body, query: def.query }, doc },
    handler: async (request, reply): Promise<string | Buffer> => {
      const locale = request.locale;
      const body = parseInput(def.body ?? nothing, request.body, locale) as Output<B>;
      const query = parseInput(def.query ?? nothing, request.query, locale) as Output<Q>;
      const auth = request.auth as RouteInput<P, B, Q>['auth'];
      const data = await def.handler({ body, query, auth, request, reply });
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
