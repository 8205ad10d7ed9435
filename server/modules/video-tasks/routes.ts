import type { FastifyInstance } from 'fastify';
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
import { idempotencyOf } from '../ledger';
import { videoTaskPresetRoutes } from './preset-routes';
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

/** Video tasks: batch mixed-cut and smart clip (docs/domain.md §9 and §8). */
export function videoTaskRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  // Presets, duplicates, CSV batches and previews: their own files (docs/domain.md §9).
  videoTaskPresetRoutes(app);

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
