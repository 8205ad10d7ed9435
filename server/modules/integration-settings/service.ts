import {
  INTEGRATION_KINDS,
  type IntegrationKind,
  type IntegrationList,
  type SecretClearBody,
  type SecretField,
  type SecretSetBody,
} from '../../../src/api/contract/integrations';
import type { AppContext, AuthContext } from '../../context';
import { refuse } from '../../platform/http/errors';
import type { StoredSecretInfo } from '../../platform/secrets/store';
import { INTEGRATION_SECRETS, providersInUse } from '../../integrations/registry';
import type { SecretFieldSpec } from '../../integrations/secret-fields';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';

/**
 * The admin view of the integrations' settings (docs/architecture.md §Secrets): per kind the
 * providers in use and each secret field's state — never a value, sealed or plain.
 */

function fieldOf(kind: IntegrationKind, name: string): SecretFieldSpec {
  const field = INTEGRATION_SECRETS[kind].find((f) => f.name === name);
  if (!field) throw refuse('integration.unknownSecret', { kind, name });
  return field;
}

async function usernames(ctx: AppContext, rows: readonly StoredSecretInfo[]) {
  const ids = [...new Set(rows.flatMap((r) => (r.updated_by === null ? [] : [r.updated_by])))];
  if (ids.length === 0) return new Map<number, string>();
  const users = await ctx.db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', ids)
    .execute();
  return new Map(users.map((u) => [Number(u.id), u.username]));
}

function fieldView(
  ctx: AppContext,
  field: SecretFieldSpec,
  row: StoredSecretInfo | undefined,
  names: ReadonlyMap<number, string>,
): SecretField {
  const fromEnv = !!field.fromEnv?.(ctx.config);
  return {
    name: field.name,
    provider: field.provider,
    env: field.env ?? null,
    configured: !!row || fromEnv,
    source: row ? 'settings' : fromEnv ? 'environment' : null,
    last4: row?.last4 ?? null,
    updated_at: row?.updated_at ?? null,
    updated_by: row?.updated_by == null ? null : (names.get(row.updated_by) ?? null),
  };
}

export async function listIntegrations(ctx: AppContext): Promise<IntegrationList> {
  const stored = await ctx.secrets.list();
  const names = await usernames(ctx, stored);
  const inUse = await providersInUse(ctx.integrations);
  return {
    list: INTEGRATION_KINDS.map((kind) => ({
      kind,
      providers: inUse[kind],
      secrets: INTEGRATION_SECRETS[kind].map((field) =>
        fieldView(
          ctx,
          field,
          stored.find((r) => r.kind === kind && r.name === field.name),
          names,
        ),
      ),
    })),
  };
}

async function viewOf(ctx: AppContext, kind: IntegrationKind, field: SecretFieldSpec) {
  const row = (await ctx.secrets.list()).find((r) => r.kind === kind && r.name === field.name);
  return fieldView(ctx, field, row, await usernames(ctx, row ? [row] : []));
}

/** Seals and stores a secret (it wins over the environment's at the next use); audited. */
export async function setSecret(
  ctx: AppContext,
  auth: AuthContext,
  body: SecretSetBody,
  audit: AuditTrail,
): Promise<SecretField> {
  const kind = body.kind;
  const field = fieldOf(kind, body.name);
  const now = ctx.now();
  await runInTransaction(
    ctx.db,
    async (trx) => {
      await ctx.secrets.write(trx, {
        kind,
        name: field.name,
        value: body.value,
        by: auth.user.id,
        now,
      });
      // The field is named; its value is a secret (the diff shows it only as "changed").
      audit.change(null, { kind, name: field.name, value: body.value });
    },
    { audit },
  );
  return viewOf(ctx, kind, field);
}

/** Removes a stored secret (the environment's, if any, is used again); audited when one was set. */
export async function clearSecret(
  ctx: AppContext,
  body: SecretClearBody,
  audit: AuditTrail,
): Promise<SecretField> {
  const kind = body.kind;
  const field = fieldOf(kind, body.name);
  await runInTransaction(
    ctx.db,
    async (trx) => {
      if (!(await ctx.secrets.clear(trx, kind, field.name))) {
        audit.unchanged();
        return;
      }
      audit.change({ kind, name: field.name, value: 'sealed' }, null);
    },
    { audit },
  );
  return viewOf(ctx, kind, field);
}
