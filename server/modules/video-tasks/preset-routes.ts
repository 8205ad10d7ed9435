import type { FastifyInstance } from 'fastify';
import {
  videoTaskPresetDeleteReplySchema,
  videoTaskPresetDetailSchema,
  videoTaskPresetIdBody,
  videoTaskPresetIdQuery,
  videoTaskPresetListQuery,
  videoTaskPresetPageSchema,
  videoTaskPresetSaveBody,
  videoTaskPresetSchema,
  videoTaskSourceSchema,
} from '../../../src/api/contract/video-task-presets';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import {
  videoTaskBatchAddReplySchema,
  videoTaskBatchBody,
  videoTaskBatchEstimateSchema,
} from '../../../src/api/contract/video-task-batch';
import { idempotencyOf } from '../ledger';
import { addBatch, estimateBatch } from './batch';
import { deletePreset, listPresets, presetDetail, savePreset, taskSource } from './presets';

const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope: 'own: the caller’s presets and tasks (another’s answers like a missing one)',
};

/**
 * Presets, duplicates and CSV batches of video tasks (docs/domain.md §9 "Presets, batches and
 * previews").
 */
export function videoTaskPresetRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/video_task_preset/save',
    reply: videoTaskPresetSchema,
    policy: OWN,
    body: videoTaskPresetSaveBody,
    audit: { action: 'video_task_preset.save', resource: 'video_task_preset' },
    successMessage: 'videoTaskPreset.saved',
    handler: ({ auth, body, audit }) => savePreset(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/video_task_preset/list',
    reply: videoTaskPresetPageSchema,
    policy: OWN,
    query: videoTaskPresetListQuery,
    handler: ({ auth, query }) => listPresets(ctx, auth, query.kind),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/video_task_preset/detail',
    reply: videoTaskPresetDetailSchema,
    policy: OWN,
    query: videoTaskPresetIdQuery,
    handler: ({ auth, query }) => presetDetail(ctx, auth, query.id),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/video_task_preset/delete',
    reply: videoTaskPresetDeleteReplySchema,
    policy: OWN,
    body: videoTaskPresetIdBody,
    audit: {
      action: 'video_task_preset.delete',
      resource: 'video_task_preset',
      id: ({ body }) => body.id,
    },
    successMessage: 'videoTaskPreset.deleted',
    handler: ({ auth, body, audit }) => deletePreset(ctx, auth, body.id, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/video_task/source',
    reply: videoTaskSourceSchema,
    policy: OWN,
    query: videoTaskPresetIdQuery,
    handler: ({ auth, query }) => taskSource(ctx, auth, query.id),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/video_task/batch_estimate',
    reply: videoTaskBatchEstimateSchema,
    policy: OWN,
    body: videoTaskBatchBody,
    audit: { none: 'reads only: an estimate' },
    handler: ({ auth, body, request }) => estimateBatch(ctx, auth, body, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/video_task/batch_add',
    reply: videoTaskBatchAddReplySchema,
    policy: OWN,
    body: videoTaskBatchBody,
    audit: { action: 'video_task.batch_add', resource: 'video_task_batch' },
    successMessage: 'videoTaskBatch.added',
    handler: ({ auth, body, request, audit }) =>
      addBatch(
        ctx,
        auth,
        body,
        request.locale,
        idempotencyOf(
          request.headers['idempotency-key'],
          auth.user.id,
          '/video_task/batch_add',
          request.body,
        ),
        audit,
      ),
  });
}
