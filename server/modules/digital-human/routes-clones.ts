import type { FastifyInstance } from 'fastify';
import {
  cloneDeleteBody,
  dhAddReplySchema,
  dhDeleteReplySchema,
  imageCloneAddBody,
  imageCloneListQuery,
  imageClonePageSchema,
  platformVoiceCloneListQuery,
  voiceCloneAddBody,
  voiceCloneListQuery,
  voiceClonePageSchema,
  voicePreviewBody,
  voicePreviewReplySchema,
} from '../../../src/api/contract/digital-human';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import { idempotencyOf } from '../ledger';
import { addImageClone, deleteImageClones, imageCloneList } from './image-clones';
import {
  addVoiceClone,
  deleteVoiceClones,
  platformVoiceCloneList,
  voiceCloneList,
  voicePreview,
} from './voice-clones';

/** Partners and merchants clone presenters (docs/domain.md §10). */
const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope: 'own: the caller’s clones (another’s answers like a missing one)',
};

/** Lists: partners and merchants their own clones, admin every user's. */
const LIST: Policy = {
  roles: ['admin', 'partner', 'merchant'],
  scope: 'own clones; admin: every user’s (with the owner’s name); public voices: everyone',
};

const PREVIEW: Policy = {
  roles: ['admin', 'partner', 'merchant'],
  scope: 'a ready voice of the caller’s or a public one (admin: any user’s)',
};

const ADMIN: Policy = { roles: ['admin'], scope: 'every user’s voice clones' };

/** Image clones, voice clones and voice previews. */
export function cloneRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  const idempotency = (
    headers: Record<string, string | string[] | undefined>,
    userId: number,
    route: string,
    body: unknown,
  ) => idempotencyOf(headers['idempotency-key'], userId, route, body);

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/image_clone_add',
    reply: dhAddReplySchema,
    policy: OWN,
    body: imageCloneAddBody,
    audit: { action: 'dh_image_clone.add', resource: 'dh_image_clone', id: 'result' },
    successMessage: 'digitalHuman.imageCloneAdded',
    handler: ({ auth, body, request, audit }) =>
      addImageClone(
        ctx,
        auth.user.id,
        body,
        idempotency(request.headers, auth.user.id, '/digital_human/image_clone_add', request.body),
        audit,
      ),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/digital_human/image_clone_list',
    reply: imageClonePageSchema,
    policy: LIST,
    query: imageCloneListQuery,
    handler: ({ auth, query, request }) => imageCloneList(ctx, auth, query, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/image_clone_delete',
    reply: dhDeleteReplySchema,
    policy: OWN,
    body: cloneDeleteBody,
    audit: {
      action: 'dh_image_clone.delete',
      resource: 'dh_image_clone',
      id: ({ body }) => body.ids,
    },
    successMessage: 'digitalHuman.clonesDeleted',
    handler: ({ auth, body, audit }) => deleteImageClones(ctx, auth, body.ids, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/voice_clone_add',
    reply: dhAddReplySchema,
    policy: OWN,
    body: voiceCloneAddBody,
    audit: { action: 'dh_voice_clone.add', resource: 'dh_voice_clone', id: 'result' },
    successMessage: 'digitalHuman.voiceCloneAdded',
    handler: ({ auth, body, request, audit }) =>
      addVoiceClone(
        ctx,
        auth.user.id,
        body,
        idempotency(request.headers, auth.user.id, '/digital_human/voice_clone_add', request.body),
        audit,
      ),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/digital_human/voice_clone_list',
    reply: voiceClonePageSchema,
    policy: LIST,
    query: voiceCloneListQuery,
    handler: ({ auth, query, request }) => voiceCloneList(ctx, auth, query, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/voice_clone_delete',
    reply: dhDeleteReplySchema,
    policy: OWN,
    body: cloneDeleteBody,
    audit: {
      action: 'dh_voice_clone.delete',
      resource: 'dh_voice_clone',
      id: ({ body }) => body.ids,
    },
    successMessage: 'digitalHuman.clonesDeleted',
    handler: ({ auth, body, audit }) => deleteVoiceClones(ctx, auth, body.ids, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/digital_human/voice_preview',
    reply: voicePreviewReplySchema,
    policy: PREVIEW,
    body: voicePreviewBody,
    audit: { none: 'speaks a sample with a ready voice (a cached file): no record changes' },
    handler: ({ auth, body }) => voicePreview(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/platform_voice_clone_list',
    reply: voiceClonePageSchema,
    policy: ADMIN,
    query: platformVoiceCloneListQuery,
    handler: ({ query, request }) => platformVoiceCloneList(ctx, query, request.locale),
  });
}
