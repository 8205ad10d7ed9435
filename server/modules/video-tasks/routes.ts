import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  videoTaskAddReplySchema,
  videoTaskBody,
  videoTaskCancelReplySchema,
  videoTaskDeleteBody,
  videoTaskDeleteReplySchema,
  videoTaskDetailSchema,
  videoTaskEstimateSchema,
  videoTaskIdBody,
  videoTaskIdQuery,
  videoTaskListQuery,
  videoTaskPageSchema,
  videoTaskRetryReplySchema,
} from '../../../src/api/contract/video-tasks';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import { documentHeaders } from '../../platform/http/security-headers';
import { writeZip } from '../../platform/lib/zip-stream';
import { contentDisposition } from '../../platform/storage/storage';
import { idempotencyOf } from '../ledger';
import { downloadAll } from './download-all';
import { videoTaskPresetRoutes } from './preset-routes';
import { videoTaskPreviewRoutes } from './preview-routes';
import {
  addTask,
  cancelTask,
  deleteTasks,
  estimateTask,
  retryTask,
  taskDetail,
  taskList,
} from './service';

/** Partners and merchants make videos (docs/domain.md §2); admin and agent do not. */
const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope:
    'own: the caller’s tasks (another’s answers like a missing one); clip refused when show_clip_menu is 0',
};

/** Documentation of the signed link's query (checked by `downloadAll`, not by zod). */
const downloadAllQuery = z.strictObject({
  id: z.string().describe('the task'),
  exp: z.string().describe('expiry, epoch seconds'),
  sig: z.string().describe('HMAC-SHA256 of the task, its owner and the expiry, base64url'),
});

/** Video tasks: batch mixed-cut and smart clip (docs/domain.md §9 and §8). */
export function videoTaskRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  // Presets, duplicates, CSV batches and previews: their own files (docs/domain.md §9).
  videoTaskPresetRoutes(app);
  videoTaskPreviewRoutes(app);

  defineRoute(app, {
    method: 'POST',
    url: '/video_task/estimate',
    reply: videoTaskEstimateSchema,
    policy: OWN,
    body: videoTaskBody,
    audit: { none: 'reads only: an estimate' },
    handler: ({ auth, body }) => estimateTask(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/video_task/add',
    reply: videoTaskAddReplySchema,
    policy: OWN,
    body: videoTaskBody,
    audit: { action: 'video_task.add', resource: 'video_task' },
    successMessage: 'videoTask.added',
    handler: ({ auth, body, request, audit }) =>
      addTask(
        ctx,
        auth,
        body,
        idempotencyOf(
          request.headers['idempotency-key'],
          auth.user.id,
          '/video_task/add',
          request.body,
        ),
        audit,
      ),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/video_task/list',
    reply: videoTaskPageSchema,
    policy: OWN,
    query: videoTaskListQuery,
    handler: ({ auth, query }) => taskList(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/video_task/detail',
    reply: videoTaskDetailSchema,
    policy: OWN,
    query: videoTaskIdQuery,
    handler: ({ auth, query, request }) => taskDetail(ctx, auth, query.id, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/video_task/retry',
    reply: videoTaskRetryReplySchema,
    policy: OWN,
    body: videoTaskIdBody,
    audit: { action: 'video_task.retry', resource: 'video_task', id: ({ body }) => body.id },
    successMessage: 'videoTask.retried',
    handler: ({ auth, body, request, audit }) =>
      retryTask(
        ctx,
        auth,
        body.id,
        idempotencyOf(
          request.headers['idempotency-key'],
          auth.user.id,
          '/video_task/retry',
          request.body,
        ),
        audit,
      ),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/video_task/cancel',
    reply: videoTaskCancelReplySchema,
    policy: OWN,
    body: videoTaskIdBody,
    audit: { action: 'video_task.cancel', resource: 'video_task', id: ({ body }) => body.id },
    successMessage: 'videoTask.cancelled',
    handler: ({ auth, body, audit }) => cancelTask(ctx, auth, body.id, audit),
  });

  // A download, not an envelope: the browser opens this signed link, so no session header is sent.
  app.route({
    method: 'GET',
    url: '/video_task/download_all',
    exposeHeadRoute: false,
    // Videos are compressed already; the archive's length is announced.
    compress: false,
    config: {
      policy: {
        roles: 'public',
        scope: 'the one task a signed link (download_all_url) names, until it expires',
      },
      audit: { none: 'reads only: the task’s finished outputs' },
      doc: {
        query: downloadAllQuery,
        raw: {
          contentType: 'application/zip',
          description:
            'a ZIP (stored, not compressed) of the task’s done outputs, streamed (404 envelope for a missing task and a wrong or expired signature alike)',
        },
      },
    },
    handler: async (request, reply) => {
      const zip = await downloadAll(ctx, request.query as Record<string, unknown>);
      // Written by hand (zip-stream.ts `writeZip`: each write waits for the socket, so one read
      // buffer serves the whole archive); no onSend hook runs for a hijacked reply, so it gets
      // the API's headers here, as the error handler's own replies do.
      reply.hijack();
      reply.raw.writeHead(200, {
        ...documentHeaders(),
        'content-type': 'application/zip',
        'content-length': zip.length,
        'content-disposition': contentDisposition(
          { key: '', contentType: 'application/zip', filename: undefined },
          zip.filename,
        ),
        'cache-control': 'no-store',
      });
      try {
        await writeZip(zip.entries, zip.at, reply.raw);
      } catch (error) {
        // Cut short (the client went away, a file failed): the client sees a short download.
        request.log.warn({ err: error, reqId: request.id }, 'download all: the ZIP was cut short');
        reply.raw.destroy();
      }
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/video_task/delete',
    reply: videoTaskDeleteReplySchema,
    policy: OWN,
    body: videoTaskDeleteBody,
    audit: { action: 'video_task.delete', resource: 'video_task', id: ({ body }) => body.ids },
    successMessage: 'videoTask.deleted',
    handler: ({ auth, body, audit }) => deleteTasks(ctx, auth, body.ids, audit),
  });
}
