import type { FastifyInstance } from 'fastify';
import {
  dhAddReplySchema,
  dhDeleteReplySchema,
  dhIdBody,
  dhIdQuery,
  dhVideoBody,
  dhVideoDeleteBody,
  dhVideoDetailSchema,
  dhVideoEstimateSchema,
  dhVideoListQuery,
  dhVideoPageSchema,
  dhVideoRenameBody,
} from '../../../src/api/contract/digital-human';
import { noData } from '../../../src/api/contract/replies';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import { idempotencyOf } from '../ledger';
import {
  addVideo,
  deleteVideos,
  estimateVideo,
  renameVideo,
  resubmitVideo,
  videoDetail,
  videoList,
} from './videos';

/** Partners and merchants make digital-human videos (docs/domain.md §10, §2). */
const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope:
    'own: the caller’s videos, clones, folders and music (another’s answers like a missing one)',
};

/** Digital-human videos (docs/domain.md §10 and §8); templates: routes-templates.ts. */
export function dhVideoRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/video_estimate',
    reply: dhVideoEstimateSchema,
    policy: OWN,
    body: dhVideoBody,
    audit: { none: 'reads only: an estimate' },
    handler: ({ auth, body }) => estimateVideo(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/video_add',
    reply: dhAddReplySchema,
    policy: OWN,
    body: dhVideoBody,
    audit: { action: 'dh_video.add', resource: 'dh_video', id: 'result' },
    successMessage: 'dhVideo.added',
    handler: ({ auth, body, request, audit }) =>
      addVideo(
        ctx,
        auth,
        body,
        idempotencyOf(
          request.headers['idempotency-key'],
          auth.user.id,
          '/digital_human/video_add',
          request.body,
        ),
        audit,
      ),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/digital_human/video_list',
    reply: dhVideoPageSchema,
    policy: OWN,
    query: dhVideoListQuery,
    handler: ({ auth, query, request }) => videoList(ctx, auth, query, request.locale),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/digital_human/video_detail',
    reply: dhVideoDetailSchema,
    policy: OWN,
    query: dhIdQuery,
    handler: ({ auth, query, request }) => videoDetail(ctx, auth, query.id, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/video_rename',
    reply: noData,
    policy: OWN,
    body: dhVideoRenameBody,
    audit: { action: 'dh_video.rename', resource: 'dh_video', id: ({ body }) => body.id },
    successMessage: 'dhVideo.renamed',
    handler: ({ auth, body, audit }) => renameVideo(ctx, auth, body.id, body.name, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/video_delete',
    reply: dhDeleteReplySchema,
    policy: OWN,
    body: dhVideoDeleteBody,
    audit: { action: 'dh_video.delete', resource: 'dh_video', id: ({ body }) => body.ids },
    successMessage: 'dhVideo.deleted',
    handler: ({ auth, body, audit }) => deleteVideos(ctx, auth, body.ids, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/video_resubmit',
    reply: dhAddReplySchema,
    policy: OWN,
    body: dhIdBody,
    // The resource is the new video; the diff names the one it was made from.
    audit: {
      action: 'dh_video.resubmit',
      resource: 'dh_video',
      id: 'result',
      diff: ({ body }) => ({ after: { resubmitted_from: body.id } }),
    },
    successMessage: 'dhVideo.resubmitted',
    handler: ({ auth, body, request, audit }) =>
      resubmitVideo(
        ctx,
        auth,
        body.id,
        idempotencyOf(
          request.headers['idempotency-key'],
          auth.user.id,
          '/digital_human/video_resubmit',
          request.body,
        ),
        audit,
      ),
  });
}
