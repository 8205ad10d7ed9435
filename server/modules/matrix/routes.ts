import type { FastifyInstance } from 'fastify';
import {
  accountDeleteBody,
  accountDeleteReplySchema,
  accountListQuery,
  accountMoveBody,
  accountMoveReplySchema,
  accountPageSchema,
  accountRefreshBody,
  accountSchema,
  assistedAddBody,
  authUrlBody,
  batchLinkAddBody,
  batchLinkAddReplySchema,
  batchLinkInfoSchema,
  batchLinkListQuery,
  batchLinkPageSchema,
  batchLinkRevokeBody,
  batchLinkTokenBody,
  batchLinkTokenQuery,
  authUrlReplySchema,
  oauthCallbackQuery,
} from '../../../src/api/contract/matrix';
import {
  planAddReplySchema,
  planBody,
  planEditBody,
  planIdBody,
  planIdQuery,
  planListQuery,
  planMediaListQuery,
  planMediaPageSchema,
  planPageSchema,
  planPreviewSchema,
  planSchema,
  postIdBody,
  postListQuery,
  postMarkPublishedBody,
  postPageSchema,
  videoDataQuery,
  videoDataSchema,
} from '../../../src/api/contract/matrix-plans';
import { noData } from '../../../src/api/contract/replies';
import {
  groupAddBody,
  groupDeleteBody,
  groupEditBody,
  groupListReplySchema,
  resourceGroupSchema,
} from '../../../src/api/contract/resources';
import { AuditTrail, type AuditSpec } from '../../platform/http/audit-trail';
import { AppError } from '../../platform/http/errors';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import {
  accountList,
  addAssistedAccount,
  deleteAccounts,
  moveAccounts,
  refreshNow,
} from './accounts';
import { accountGroupList, addAccountGroup, deleteAccountGroup, editAccountGroup } from './groups';
import { addBatchLink, batchLinkInfo, batchLinkList, revokeBatchLink } from './batch-links';
import {
  finishAuthorization,
  landingOf,
  pageAfter,
  startAuthorization,
  startBatchAuthorization,
} from './oauth';
import { addPlan, changePlan, planDetail, planList, previewPlan } from './plans';
import { editPlan } from './plan-edit';
import { planMediaList } from './plan-media-list';
import { markPublished, postList, queuePost } from './posts';
import { videoData } from './video-data';

/** Partners and merchants publish to their own accounts (docs/domain.md §19). */
const OWN: Policy = {
  roles: ['partner', 'merchant'],
  scope: 'own: the caller’s accounts and groups (another’s answer like missing ones)',
};

const BIND: AuditSpec = { action: 'matrix.account_bind', resource: 'matrix_account' };

/** Matrix distribution's accounts (docs/domain.md §19). */
export function matrixAccountRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/auth_url',
    reply: authUrlReplySchema,
    policy: OWN,
    body: authUrlBody,
    audit: { none: 'starts an authorisation: the account is bound, and audited, by the callback' },
    handler: ({ auth, body }) => startAuthorization(ctx, auth, body),
  });

  // The platform sends the person's browser here (no session header): the signed, single-use
  // state names who asked. Answers a redirect to the accounts page, never JSON.
  app.route({
    method: 'GET',
    url: '/matrix/oauth_callback',
    exposeHeadRoute: false,
    config: {
      policy: { roles: 'public', scope: 'whoever holds a valid state from /matrix/auth_url' },
      audit: BIND,
      doc: {
        query: oauthCallbackQuery,
        raw: {
          contentType: 'text/plain',
          description:
            '302 to /matrix-distribution/authorization?bound=<id>, or ?error=<message id>',
        },
      },
    },
    handler: async (request, reply) => {
      const parsed = oauthCallbackQuery.safeParse(request.query);
      const trail = new AuditTrail(
        BIND as AuditSpec<never, never>,
        null,
        request,
        app.auditing.now,
      );
      const landing = await landingOf(ctx, parsed.success ? parsed.data.state : undefined);
      let target: string;
      try {
        if (!parsed.success) throw new AppError('matrix.authStateInvalid');
        target = pageAfter(landing, { bound: await finishAuthorization(ctx, parsed.data, trail) });
      } catch (error) {
        if (!(error instanceof AppError) || error.httpStatus >= 500) throw error;
        target = pageAfter(landing, { error: error.messageId });
      }
      return reply.header('cache-control', 'no-store').redirect(target, 302);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/matrix/account_list',
    reply: accountPageSchema,
    policy: OWN,
    query: accountListQuery,
    handler: ({ auth, query, request }) => accountList(ctx, auth, query, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/account_refresh',
    reply: accountSchema,
    policy: OWN,
    body: accountRefreshBody,
    audit: {
      action: 'matrix.account_refresh',
      resource: 'matrix_account',
      id: ({ body }) => body.id,
    },
    successMessage: 'matrix.accountRefreshed',
    handler: ({ auth, body, request, audit }) =>
      refreshNow(ctx, auth, body.id, request.locale, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/account_delete',
    reply: accountDeleteReplySchema,
    policy: OWN,
    body: accountDeleteBody,
    audit: { action: 'matrix.account_delete', resource: 'matrix_account' },
    successMessage: 'matrix.accountsDeleted',
    handler: ({ auth, body, audit }) => deleteAccounts(ctx, auth, body.ids, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/account_move',
    reply: accountMoveReplySchema,
    policy: OWN,
    body: accountMoveBody,
    audit: { action: 'matrix.account_move', resource: 'matrix_account' },
    handler: ({ auth, body, audit }) => moveAccounts(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/matrix/account_group_list',
    reply: groupListReplySchema,
    policy: OWN,
    handler: ({ auth }) => accountGroupList(ctx, auth),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/account_group_add',
    reply: resourceGroupSchema,
    policy: OWN,
    body: groupAddBody,
    audit: { action: 'matrix.group_add', resource: 'matrix_account_group', id: 'result' },
    handler: ({ auth, body, audit }) => addAccountGroup(ctx, auth, body.name, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/account_group_edit',
    reply: resourceGroupSchema,
    policy: OWN,
    body: groupEditBody,
    audit: {
      action: 'matrix.group_edit',
      resource: 'matrix_account_group',
      id: ({ body }) => body.id,
    },
    handler: ({ auth, body, audit }) => editAccountGroup(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/account_group_delete',
    reply: noData,
    policy: OWN,
    body: groupDeleteBody,
    audit: {
      action: 'matrix.group_delete',
      resource: 'matrix_account_group',
      id: ({ body }) => body.id,
    },
    handler: ({ auth, body, audit }) => deleteAccountGroup(ctx, auth, body.id, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/plan_preview',
    reply: planPreviewSchema,
    policy: OWN,
    body: planBody,
    audit: { none: 'computes the schedule a plan would make; saves nothing' },
    handler: ({ auth, body }) => previewPlan(ctx, auth, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/plan_add',
    reply: planAddReplySchema,
    policy: OWN,
    body: planBody,
    audit: { action: 'matrix.plan_add', resource: 'matrix_plan', id: 'result' },
    handler: ({ auth, body, audit }) => addPlan(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/plan_edit',
    reply: planSchema,
    policy: OWN,
    body: planEditBody,
    audit: { action: 'matrix.plan_edit', resource: 'matrix_plan', id: ({ body }) => body.id },
    handler: ({ auth, body, audit }) => editPlan(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/matrix/plan_media_list',
    reply: planMediaPageSchema,
    policy: OWN,
    query: planMediaListQuery,
    handler: ({ auth, query }) => planMediaList(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/matrix/plan_list',
    reply: planPageSchema,
    policy: OWN,
    query: planListQuery,
    handler: ({ auth, query }) => planList(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/matrix/plan_detail',
    reply: planSchema,
    policy: OWN,
    query: planIdQuery,
    handler: ({ auth, query }) => planDetail(ctx, auth, query.id),
  });

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    defineRoute(app, {
      method: 'POST',
      url: `/matrix/plan_${action}`,
      reply: planSchema,
      policy: OWN,
      body: planIdBody,
      audit: {
        action: `matrix.plan_${action}`,
        resource: 'matrix_plan',
        id: ({ body }) => body.id,
      },
      handler: ({ auth, body, audit }) => changePlan(ctx, auth, body.id, action, audit),
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: '/matrix/post_list',
    reply: postPageSchema,
    policy: OWN,
    query: postListQuery,
    handler: ({ auth, query, request }) => postList(ctx, auth, query, request.locale),
  });

  for (const action of ['publish_now', 'retry'] as const) {
    defineRoute(app, {
      method: 'POST',
      url: `/matrix/post_${action}`,
      reply: noData,
      policy: OWN,
      body: postIdBody,
      audit: {
        action: `matrix.post_${action}`,
        resource: 'matrix_post',
        id: ({ body }) => body.id,
      },
      handler: ({ auth, body, audit }) => queuePost(ctx, auth, body.id, action, audit),
    });
  }

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/batch_link_add',
    reply: batchLinkAddReplySchema,
    policy: OWN,
    body: batchLinkAddBody,
    audit: { action: 'matrix.batch_link_add', resource: 'matrix_batch_link', id: 'result' },
    handler: ({ auth, body, audit }) => addBatchLink(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/matrix/batch_link_list',
    reply: batchLinkPageSchema,
    policy: OWN,
    query: batchLinkListQuery,
    handler: ({ auth, query }) => batchLinkList(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/batch_link_revoke',
    reply: noData,
    policy: OWN,
    body: batchLinkRevokeBody,
    audit: {
      action: 'matrix.batch_link_revoke',
      resource: 'matrix_batch_link',
      id: ({ body }) => body.id,
    },
    handler: ({ auth, body, audit }) => revokeBatchLink(ctx, auth, body.id, audit),
  });

  // The public page of a batch link (no login): the token is the credential; throttled.
  defineRoute(app, {
    method: 'GET',
    url: '/matrix/batch_link_info',
    reply: batchLinkInfoSchema,
    policy: { roles: 'public', scope: 'whoever holds the link' },
    query: batchLinkTokenQuery,
    handler: ({ query, request }) => batchLinkInfo(ctx, query.token, request.ip),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/batch_auth_url',
    reply: authUrlReplySchema,
    policy: { roles: 'public', scope: 'whoever holds the link' },
    body: batchLinkTokenBody,
    audit: { none: 'starts an authorisation: the callback binds the account and audits it' },
    handler: ({ body, request }) => startBatchAuthorization(ctx, body.token, request.ip),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/matrix/video_data',
    reply: videoDataSchema,
    policy: OWN,
    query: videoDataQuery,
    handler: ({ auth, query, request }) => videoData(ctx, auth, query, request.locale),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/account_add_assisted',
    reply: accountSchema,
    policy: OWN,
    body: assistedAddBody,
    audit: { action: 'matrix.account_add', resource: 'matrix_account', id: 'result' },
    handler: ({ auth, body, request, audit }) =>
      addAssistedAccount(ctx, auth, body, request.locale, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/matrix/post_mark_published',
    reply: noData,
    policy: OWN,
    body: postMarkPublishedBody,
    audit: {
      action: 'matrix.post_mark_published',
      resource: 'matrix_post',
      id: ({ body }) => body.id,
    },
    handler: ({ auth, body, audit }) => markPublished(ctx, auth, body, audit),
  });
}
