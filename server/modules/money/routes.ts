import type { FastifyInstance } from 'fastify';
import {
  exchangeReplySchema,
  moneyLogPageSchema,
  transferConfigSchema,
  transferRecordPageSchema,
  transferRecordSchema,
} from '../../../src/api/contract/replies';
import {
  editTransferConfigBody,
  exchangeBody,
  moneyLogQuery,
  transferBody,
  transferRecordQuery,
} from '../../../src/api/contract/money';
import { defineRoute } from '../../platform/http/route';
import { idempotencyOf } from '../ledger';
import { editTransferConfig, exchange, moneyLog, transfer, transferRecords } from './service';

/** Transfers, exchange, the ledger and transfer records (docs/domain.md §3). */
export function moneyRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'POST',
    url: '/platform/transfer',
    reply: transferRecordSchema,
    policy: { roles: ['admin', 'partner'], scope: 'descendants, with the asset’s flag' },
    body: transferBody,
    // The resource is the counterparty; the diff its balance of the asset around the transfer.
    audit: { action: 'money.transfer', resource: 'user', id: ({ body }) => body.to_user_id },
    successMessage: 'transfer.done',
    handler: ({ auth, body, request, audit }) =>
      transfer(
        ctx,
        auth,
        body,
        idempotencyOf(
          request.headers['idempotency-key'],
          auth.user.id,
          '/platform/transfer',
          request.body,
        ),
        audit,
      ),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/edit_transfer_config',
    reply: transferConfigSchema,
    policy: { roles: ['admin', 'partner'], scope: 'descendants; a partner grants flags it holds' },
    body: editTransferConfigBody,
    audit: { action: 'money.transfer_config', resource: 'user', id: ({ body }) => body.user_id },
    successMessage: 'transfer.configSaved',
    handler: ({ auth, body, audit }) => editTransferConfig(ctx, auth, body, audit),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/platform/exchange',
    reply: exchangeReplySchema,
    policy: { roles: ['admin', 'partner', 'merchant'], scope: 'self', overstep: false },
    body: exchangeBody,
    audit: { action: 'money.exchange', resource: 'user', id: ({ auth }) => auth?.user.id },
    successMessage: 'exchange.done',
    handler: ({ auth, body, request, audit }) =>
      exchange(
        ctx,
        auth,
        body,
        idempotencyOf(
          request.headers['idempotency-key'],
          auth.user.id,
          '/platform/exchange',
          request.body,
        ),
        audit,
      ),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/user_money_log',
    reply: moneyLogPageSchema,
    policy: { roles: ['admin', 'partner', 'merchant'], scope: 'self, or a visible user' },
    query: moneyLogQuery,
    handler: ({ auth, query, request }) => moneyLog(ctx, auth, query, request.locale),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/transfer_record',
    reply: transferRecordPageSchema,
    policy: { roles: ['admin', 'partner', 'merchant'], scope: 'transfers touching visible users' },
    query: transferRecordQuery,
    handler: ({ auth, query, request }) => transferRecords(ctx, auth, query, request.locale),
  });
}
