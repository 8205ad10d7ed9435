import type { FastifyInstance } from 'fastify';
import {
  addCardsReplySchema,
  cardPageSchema,
  cardRowSchema,
  countReplySchema,
  exportTicketReplySchema,
  useCardReplySchema,
} from '../../../src/api/contract/replies';
import {
  addCardsBody,
  canOperateQuery,
  cardListQuery,
  deleteCardsBody,
  editCardBody,
  exportDataQuery,
  exportTicketBody,
  remarkCardsBody,
  transferCardsBody,
  useCardBody,
} from '../../../src/api/contract/cards';
import { sendCsvDownload } from '../../platform/http/download-tickets';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import { parseInput } from '../../platform/http/validation';
import { idempotencyOf } from '../ledger';
import { addCards } from './add-cards';
import { deleteCards } from './delete-cards';
import { editCard, remarkCards } from './edit-cards';
import { exportData, exportTicket } from './export-cards';
import { cardList, operableCards } from './list-cards';
import { useCard } from './redeem-card';
import { transferCards } from './transfer-cards';

const ISSUERS = ['admin', 'partner'] as const;
const MANAGED = 'admin: every card; partner: cards of its service and cards it holds';
const HOLDERS =
  'admin: every card; partner: its service’s and held; merchant, agent: held or redeemed';

const EXPORT_DATA_POLICY: Policy = {
  roles: 'public',
  scope: 'the ticket is the credential: the scope of the user it was issued to',
};

/** Recharge cards (卡密), docs/domain.md §5 and §2; docs/decisions.md "Recharge cards". */
export function cardRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_card/add',
    reply: addCardsReplySchema,
    policy: { roles: ISSUERS, scope: 'self: a partner pays, an admin mints' },
    body: addCardsBody,
    audit: { action: 'card.add', resource: 'card' },
    successMessage: 'card.created',
    handler: ({ auth, body, request, audit }) =>
      addCards(
        ctx,
        auth,
        body,
        idempotencyOf(
          request.headers['idempotency-key'],
          auth.user.id,
          '/recharge_card/add',
          request.body,
        ),
        audit,
      ),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_card/transfer_card',
    reply: countReplySchema,
    policy: { roles: ISSUERS, scope: 'cards the caller holds, to its descendants' },
    body: transferCardsBody,
    audit: { action: 'card.transfer', resource: 'card' },
    successMessage: 'card.transferred',
    handler: ({ auth, body, audit }) => transferCards(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_card/use_card',
    reply: useCardReplySchema,
    policy: {
      roles: ['partner', 'merchant'],
      scope: 'cards of the platform or the caller’s service',
    },
    body: useCardBody,
    audit: { action: 'card.redeem', resource: 'card', id: 'result' },
    successMessage: 'card.redeemed',
    handler: ({ auth, body, audit }) => useCard(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_card/remark_card',
    reply: countReplySchema,
    policy: { roles: ISSUERS, scope: MANAGED },
    body: remarkCardsBody,
    audit: { action: 'card.remark', resource: 'card', id: ({ body }) => body.ids },
    successMessage: 'card.saved',
    handler: ({ auth, body, audit }) => remarkCards(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_card/edit_card',
    reply: cardRowSchema,
    policy: { roles: ISSUERS, scope: MANAGED },
    body: editCardBody,
    audit: { action: 'card.edit', resource: 'card', id: ({ body }) => body.id },
    successMessage: 'card.saved',
    handler: ({ auth, body, audit }) => editCard(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_card/batch_del',
    reply: countReplySchema,
    policy: { roles: ISSUERS, scope: MANAGED },
    body: deleteCardsBody,
    audit: { action: 'card.delete', resource: 'card' },
    successMessage: 'card.deleted',
    handler: ({ auth, body, audit }) => deleteCards(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/recharge_card/card_list',
    reply: cardPageSchema,
    policy: { roles: ['admin', 'partner', 'merchant', 'agent'], scope: HOLDERS },
    query: cardListQuery,
    handler: ({ auth, query }) => cardList(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/recharge_card/can_operate_card_list',
    reply: cardPageSchema,
    policy: {
      roles: ['admin', 'partner', 'merchant', 'agent'],
      scope: 'unused cards the caller holds',
    },
    query: canOperateQuery,
    handler: ({ auth, query }) => operableCards(ctx, auth, query),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/recharge_card/export_ticket',
    reply: exportTicketReplySchema,
    policy: { roles: ISSUERS, scope: HOLDERS },
    body: exportTicketBody,
    // A download of card passwords: who asked for which filter or selection.
    audit: { action: 'card.export', resource: 'card', id: ({ body }) => body.ids },
    handler: ({ auth, body, request, audit }) =>
      exportTicket(ctx, auth, body, request.locale, request.host, audit),
  });

  // A download, not an envelope: the browser opens this URL, so no session header is sent.
  app.route({
    method: 'GET',
    url: '/recharge_card/export_data',
    exposeHeadRoute: false,
    config: {
      policy: EXPORT_DATA_POLICY,
      audit: { none: 'spends the ticket of export_ticket, which is audited (card.export)' },
      input: { query: exportDataQuery },
      doc: {
        query: exportDataQuery,
        raw: {
          contentType: 'text/csv; charset=utf-8',
          description:
            'the cards of the ticket’s query as a CSV download (410 envelope: spent ticket)',
        },
      },
    },
    handler: async (request, reply) => {
      const { ticket } = parseInput(exportDataQuery, request.query, request.locale);
      return sendCsvDownload(request, reply, (explicit) => exportData(ctx, ticket, explicit));
    },
  });
}
