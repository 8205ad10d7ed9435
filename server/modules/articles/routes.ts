import type { FastifyInstance } from 'fastify';
import {
  agreementAcceptBody,
  agreementAcceptReplySchema,
  agreementDetailQuery,
  agreementDetailSchema,
  agreementListQuery,
  agreementPageSchema,
  agreementPendingSchema,
  agreementSaveBody,
  agreementSchema,
  articleAddBody,
  articleDeleteBody,
  articleDetailQuery,
  articleEditBody,
  articleListQuery,
  articlePageSchema,
  articlePublishedQuery,
  articleSchema,
} from '../../../src/api/contract/content';
import { noData } from '../../../src/api/contract/replies';
import { defineRoute } from '../../platform/http/route';
import {
  acceptAgreement,
  addArticle,
  agreementInForce,
  agreementList,
  articleDetail,
  articleList,
  deleteArticle,
  editArticle,
  hostOf,
  pendingAgreement,
  publishedArticles,
  saveAgreement,
} from './service';

const WRITERS = ['admin', 'partner'] as const;
const WRITE_SCOPE = 'admin: the platform’s rows; partner: its own (overrides on its domains)';
const READ_SCOPE =
  'admin, partner: their own rows, drafts included; merchant, agent: published rows of the platform and of the partner of the domain read on';
/** The audit keeps the fields, not the bodies (the row keeps the body; docs/domain.md "Articles and agreements"). */
const ARTICLE_FIELDS = ['category', 'title', 'cover', 'sort', 'status'];

/** Articles and agreements (docs/domain.md "Articles and agreements"). */
export function articleRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/article/list',
    reply: articlePageSchema,
    policy: { roles: 'any', scope: READ_SCOPE },
    query: articleListQuery,
    handler: ({ auth, query, request }) => articleList(ctx, auth, hostOf(request), query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/article/published',
    reply: articlePageSchema,
    // The help centre and the notices: every role reads what the domain's readers read.
    policy: {
      roles: 'any',
      scope: 'published rows of the platform and of the partner of the domain read on',
    },
    query: articlePublishedQuery,
    handler: ({ query, request }) => publishedArticles(ctx, hostOf(request), query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/article/detail',
    reply: articleSchema,
    policy: { roles: 'any', scope: READ_SCOPE },
    query: articleDetailQuery,
    handler: ({ auth, query, request }) => articleDetail(ctx, auth, hostOf(request), query.id),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/article/add',
    reply: articleSchema,
    policy: { roles: WRITERS, scope: WRITE_SCOPE },
    body: articleAddBody,
    audit: { action: 'article.add', resource: 'article', fields: ARTICLE_FIELDS },
    successMessage: 'article.saved',
    handler: ({ auth, body, audit }) => addArticle(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/article/edit',
    reply: articleSchema,
    policy: { roles: WRITERS, scope: WRITE_SCOPE },
    body: articleEditBody,
    audit: {
      action: 'article.edit',
      resource: 'article',
      id: ({ body }) => body.id,
      fields: ARTICLE_FIELDS,
    },
    successMessage: 'article.saved',
    handler: ({ auth, body, audit }) => editArticle(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/article/delete',
    reply: noData,
    policy: { roles: WRITERS, scope: WRITE_SCOPE },
    body: articleDeleteBody,
    audit: { action: 'article.delete', resource: 'article', id: ({ body }) => body.id },
    successMessage: 'article.deleted',
    handler: ({ auth, body, audit }) => deleteArticle(ctx, auth, body.id, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/agreement/list',
    reply: agreementPageSchema,
    policy: {
      roles: WRITERS,
      scope: 'admin: the platform’s versions; partner: its own and the platform’s',
    },
    query: agreementListQuery,
    handler: ({ auth, query }) => agreementList(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/agreement/detail',
    reply: agreementDetailSchema,
    // The login and sign-up forms link the agreements: anyone reads the version in force.
    policy: {
      roles: 'public',
      scope: 'the version in force on the domain (its partner’s, else the platform’s)',
    },
    query: agreementDetailQuery,
    handler: ({ query, request }) =>
      agreementInForce(ctx, query.kind, hostOf(request, query.domain)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/agreement/pending',
    reply: agreementPendingSchema,
    policy: { roles: 'any', scope: 'the caller’s own acceptances' },
    handler: ({ auth, request }) => pendingAgreement(ctx, auth, hostOf(request)),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/agreement/save',
    reply: agreementSchema,
    policy: { roles: WRITERS, scope: WRITE_SCOPE },
    body: agreementSaveBody,
    audit: {
      action: 'agreement.save',
      resource: 'agreement',
      fields: ['kind', 'version', 'effective_at'],
    },
    successMessage: 'agreement.saved',
    handler: ({ auth, body, audit }) => saveAgreement(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/agreement/accept',
    reply: agreementAcceptReplySchema,
    // Acceptance is the person's own: never on its behalf in a login-as session.
    policy: { roles: 'any', scope: 'the caller’s own acceptance', overstep: false },
    body: agreementAcceptBody,
    audit: { action: 'agreement.accept', resource: 'agreement' },
    successMessage: 'agreement.accepted',
    handler: ({ auth, body, request, audit }) =>
      acceptAgreement(ctx, auth, hostOf(request), body, audit),
  });
}
