import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ReplyCode, type Envelope } from '../../../src/api/contract/envelope';
import type { AppContext } from '../../context';
import { BODY_LIMIT } from '../../platform/http/body-parsing';
import { AppError } from '../../platform/http/errors';
import { t } from '../../platform/i18n';
import { DH_BILLING, type DhTable } from './billing';
import { DH_ACTIVE, enqueueDh } from './requeue';

/** What a vendor callback answers: whether it named a job of ours that is still under way. */
export const dhCallbackReplySchema = z.object({
  /** The table of the clone or video the job is about; null when no row has that job. */
  kind: z.enum(['image_clone', 'voice_clone', 'video']).nullable(),
  /** True when the row's job was enqueued again (it resumes the vendor job and finishes once). */
  resumed: z.boolean(),
});
export type DhCallbackReply = z.infer<typeof dhCallbackReplySchema>;

const KIND: Record<DhTable, 'image_clone' | 'voice_clone' | 'video'> = {
  dh_image_clones: 'image_clone',
  dh_voice_clones: 'voice_clone',
  dh_videos: 'video',
};
/**
 * Job states in which the row's job is still under way or will run: no other run is enqueued (a
 * running one is woken by the provider's `parseCallback`, or resumes at its next poll).
 */
const PENDING = ['waiting', 'delayed', 'active'];

/**
 * A vendor's callback about one of its jobs: the row of any digital-human table with that
 * `(provider, vendor_job_id)` has its job enqueued again when none of its runs is waiting or
 * running (the job was lost, or its worker died);
 * the job resumes the vendor job (never submits it again), collects the result and finishes the
 * row once (billing.ts `finishHeld`). A finished row, an unknown job and a repeated callback
 * change nothing.
 */
export async function receiveCallback(
  ctx: AppContext,
  vendorJobId: string,
): Promise<DhCallbackReply> {
  for (const table of Object.keys(DH_BILLING) as DhTable[]) {
    const row = await ctx.db
      .selectFrom(table)
      .select(['id', 'status', 'job_id'])
      .where('provider', '=', ctx.integrations.digitalHuman.name)
      .where('vendor_job_id', '=', vendorJobId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!row) continue;
    if (!DH_ACTIVE[table].includes(row.status)) return { kind: KIND[table], resumed: false };
    const info = row.job_id ? await ctx.jobs.get(row.job_id) : undefined;
    if (info && PENDING.includes(info.state)) return { kind: KIND[table], resumed: false };
    await enqueueDh(ctx, table, [Number(row.id)]);
    return { kind: KIND[table], resumed: true };
  }
  return { kind: null, resumed: false };
}

/**
 * `POST /digital_human/vendor_callback`: no session; the raw body is kept for the provider's
 * signature check (docs/digital-human-vendor.md). A wrong signature answers 401 and changes
 * nothing.
 */
export function dhCallbackRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.route({
      method: 'POST',
      url: '/digital_human/vendor_callback',
      config: {
        policy: { roles: 'public', scope: 'the vendor, by its signature' },
        audit: {
          none: 'the vendor’s report on a job: the job’s state and its billing record it',
        },
        doc: {
          bodyType: 'the vendor’s signed callback, as it sends it (docs/digital-human-vendor.md)',
          reply: dhCallbackReplySchema,
        },
      },
      handler: async (request): Promise<Envelope<DhCallbackReply>> => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const callback = await ctx.integrations.digitalHuman.parseCallback(
          raw.toString('utf8'),
          request.headers,
        );
        if (!callback) throw new AppError('dhVideo.badCallback', {}, 401);
        const data = await receiveCallback(ctx, callback.vendorJobId);
        return {
          code: ReplyCode.SUCCESS,
          msg: t(request.locale, 'dhVideo.callbackReceived'),
          data,
        };
      },
    });
  });
}
