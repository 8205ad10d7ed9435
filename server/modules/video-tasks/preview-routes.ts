import type { FastifyInstance } from 'fastify';
import {
  videoPreviewIdQuery,
  videoPreviewSchema,
} from '../../../src/api/contract/video-task-preview';
import { videoTaskBody } from '../../../src/api/contract/video-tasks';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import { addPreview, previewDetail, PreviewThrottled } from './preview';

const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope:
    'own: the caller’s previews (another’s answers like a missing one); clip refused when show_clip_menu is 0',
};

/** Previews before paying (docs/domain.md §9 "Presets, batches and previews"). */
export function videoTaskPreviewRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/video_task/preview',
    reply: videoPreviewSchema,
    policy: OWN,
    body: videoTaskBody,
    audit: {
      none: 'free and short-lived: a preview render (no money moves, removed after an hour)',
    },
    handler: async ({ auth, body, request, reply }) => {
      try {
        return await addPreview(ctx, auth, body, request.locale);
      } catch (error) {
        // HTTP 429 with the seconds to wait (docs/decisions.md "Preview before paying").
        if (error instanceof PreviewThrottled) reply.header('retry-after', String(error.seconds));
        throw error;
      }
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/video_task/preview_detail',
    reply: videoPreviewSchema,
    policy: OWN,
    query: videoPreviewIdQuery,
    handler: ({ auth, query, request }) => previewDetail(ctx, auth, query.id, request.locale),
  });
}
