import type { CustomerRow, EditAccountData } from '../../../src/api/contract/customers';
import type { AppContext, AuthContext } from '../../context';
import { hashPassword } from '../../platform/lib/passwords';
import { writeAudit } from '../audit';
import { clearAttempts } from '../auth';
import { accountKey } from '../auth';
import { endSessionsOfUser } from '../sessions';
import { updateUser } from '../users';
import { setUserStatus } from '../sessions';
import { assertFree, managedUser, rowOf, withUniqueCheck, type CallSite } from './customer-rules';

/**
 * POST /provider_service/edit_account (admin, or the user's partner): account name, password
 * reset (ends the user's sessions) and enable / disable (disable ends its sessions).
 */
export async function editAccount(
  ctx: AppContext,
  auth: AuthContext,
  body: EditAccountData,
  site: CallSite,
): Promise<CustomerRow> {
  const target = await managedUser(ctx.db, auth, body.id);
  const newName = body.username !== undefined && body.username !== target.username;
  if (newName) await assertFree(ctx.db, { username: body.username }, target.id);
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
  if (newName || passwordHash !== undefined) {
    await withUniqueCheck(ctx, { username: body.username }, target.id, () =>
      ctx.db.transaction().execute(async (trx) => {
        const now = ctx.now();
        await updateUser(trx, target.id, {
          username: newName ? body.username : undefined,
          password_hash: passwordHash,
          updated_at: now,
        });
        if (newName) {
          await writeAudit(trx, {
            actorId: auth.user.id,
            action: 'customer.username',
            targetType: 'user',
            targetId: target.id,
            ip: site.ip,
            detail: { from: target.username, to: body.username },
            now,
          });
        }
        if (passwordHash !== undefined) {
          await endSessionsOfUser(ctx, trx, target.id, 'password_reset');
          // A reset by an ancestor also lifts a lock from failed logins.
          await clearAttempts(trx, accountKey(target.username).key);
          await writeAudit(trx, {
            actorId: auth.user.id,
            action: 'customer.password_reset',
            targetType: 'user',
            targetId: target.id,
            ip: site.ip,
            detail: { username: target.username },
            now,
          });
        }
      }),
    );
  }
  if (body.status !== undefined && body.status !== target.status) {
    await setUserStatus(ctx, target.id, body.status as 0 | 1);
    await writeAudit(ctx.db, {
      actorId: auth.user.id,
      action: 'customer.status',
      targetType: 'user',
      targetId: target.id,
      ip: site.ip,
      detail: { username: body.username ?? target.username, status: body.status },
      now: ctx.now(),
    });
  }
  return rowOf(ctx, target.id);
}
