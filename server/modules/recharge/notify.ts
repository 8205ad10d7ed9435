import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../platform/db/errors';
import { AppError } from '../../platform/http/errors';
import type { MessageId } from '../../platform/i18n';
import type { NotificationHeaders, PaymentProvider } from '../../integrations/payment';
import { lockUsers, post, postSystem, runMoney } from '../ledger';
import { findOrderByNo, findOrderByTransaction, markOrderPaid } from './repo';

export interface NotificationResult {
  order_no: string;
  pay_status: 'paid' | 'refunded';
  /** False for a repeated notification (nothing changed). */
  credited: boolean;
}

/** A refusal of a notification: 4xx, `code: 0`; the provider will retry or report it. */
const reject = (id: MessageId, status: number) => new AppError(id, {}, status);

/**
 * The only place a balance grows from a payment. After the provider verified the signature, one
 * transaction marks the order paid — a pending or a closed one (money received is never lost) —
 * credits money + gift to the buyer (ledger type `recharge`) and debits the platform's `payments`
 * account by the same. A repeated notification of the same payment changes nothing and succeeds.
 */
export async function receiveNotification(
  ctx: AppContext,
  provider: PaymentProvider,
  headers: NotificationHeaders,
  rawBody: Buffer,
): Promise<NotificationResult> {
  const verified = provider.verifyNotification(headers, rawBody);
  if (!verified.ok) {
    ctx.log.warn({ way: provider.way, reason: verified.reason }, 'payment notification refused');
    throw reject(
      verified.reason === 'signature' ? 'payment.badSignature' : 'payment.malformed',
      400,
    );
  }
  const paid = verified.notification;
  try {
    return await runMoney(ctx, async (trx) => {
      const order = await findOrderByNo(trx, paid.order_no);
      if (!order || order.pay_way !== provider.way) throw reject('payment.orderNotFound', 404);
      if (Number(order.amount) !== paid.amount) {
        ctx.log.warn(
          { order_no: order.order_no, expected: Number(order.amount), paid: paid.amount },
          'payment amount does not match the order',
        );
        throw reject('payment.amountMismatch', 400);
      }
      const other = await findOrderByTransaction(trx, paid.transaction_id);
      if (other && other.id !== order.id) throw reject('payment.duplicate', 409);

      const changed = await markOrderPaid(trx, order.order_no, paid);
      if (!changed) {
        const current = await findOrderByNo(trx, order.order_no);
        if (current && current.transaction_id === paid.transaction_id) {
          return {
            order_no: current.order_no,
            pay_status: current.pay_status === 'refunded' ? 'refunded' : 'paid',
            credited: false,
          };
        }
        // A second, different payment of a paid order: keep refusing so it stays visible.
        ctx.log.error(
          { order_no: order.order_no, transaction_id: paid.transaction_id },
          'second payment for an order already paid: refund it at the provider',
        );
        throw reject('payment.duplicate', 409);
      }
      const total = Number(changed.money) + Number(changed.gift_money);
      const now = ctx.now();
      await lockUsers(ctx, trx, [Number(changed.user_id)]);
      await post(trx, {
        userId: Number(changed.user_id),
        asset: 'money',
        type: 'recharge',
        change: total,
        memo: changed.package_name,
        relatedType: 'recharge_order',
        relatedId: changed.id,
        operatorId: null,
        now,
      });
      await postSystem(trx, {
        account: 'payments',
        asset: 'money',
        change: -total,
        relatedType: 'recharge_order',
        relatedId: changed.id,
        now,
      });
      ctx.log.info(
        { order_no: order.order_no, transaction_id: paid.transaction_id, was: order.pay_status },
        'recharge order paid',
      );
      return { order_no: order.order_no, pay_status: 'paid', credited: true };
    });
  } catch (error) {
    // Two orders racing for one transaction id: the unique index refuses the second.
    if (isUniqueViolation(error)) throw reject('payment.duplicate', 409);
    throw error;
  }
}
