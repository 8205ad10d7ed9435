import {
  INIT_CONFIG_FIELDS,
  INIT_CONFIG_GROUPS,
  isWriteOnly,
  type InitConfig,
  type InitConfigGroup,
  type InitFieldSpec,
  type InitGroupValues,
  type SecretState,
} from '../../../src/api/contract/init-config';
import type { AppContext, AuthContext } from '../../context';
import { environmentSetting } from '../../integrations/settings';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import type { StoredSecretInfo } from '../../platform/secrets/store';

/**
 * The system init settings (docs/domain.md §System init): every value, plain or secret, is kept
 * in the sealed settings store (`integration_settings`) under its integration kind and name, the
 * one place the integrations read (server/integrations/settings.ts). Plain values are read back;
 * secrets and files only as their state.
 */

/** The diff's name of a field: `<group>.<key>`. */
export const auditName = (group: InitConfigGroup, key: string) => `${group}.${key}`;

/** Every write-only field's diff name: the audit row shows these only as "changed". */
export const WRITE_ONLY_AUDIT_NAMES = INIT_CONFIG_GROUPS.flatMap((group) =>
  INIT_CONFIG_FIELDS[group].filter(isWriteOnly).map((field) => auditName(group, field.key)),
);

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

function stateOf(
  ctx: AppContext,
  field: InitFieldSpec,
  row: StoredSecretInfo | undefined,
  names: ReadonlyMap<number, string>,
): SecretState {
  const fromEnv = !!environmentSetting(ctx.config, field.kind, field.name);
  return {
    configured: !!row || fromEnv,
    source: row ? 'settings' : fromEnv ? 'environment' : null,
    // A file's last characters are its PEM footer: nothing to recognise it by.
    last4: field.type === 'file' ? null : (row?.last4 ?? null),
    updated_at: row?.updated_at ?? null,
    updated_by: row?.updated_by == null ? null : (names.get(row.updated_by) ?? null),
  };
}

async function groupValues(
  ctx: AppContext,
  group: InitConfigGroup,
  stored: readonly StoredSecretInfo[],
  names: ReadonlyMap<number, string>,
): Promise<InitGroupValues> {
  const values: InitGroupValues = {};
  for (const field of INIT_CONFIG_FIELDS[group]) {
    const row = stored.find((r) => r.kind === field.kind && r.name === field.name);
    if (isWriteOnly(field)) {
      values[field.key] = stateOf(ctx, field, row, names);
    } else {
      const value = row ? await ctx.secrets.read(field.kind, field.name) : undefined;
      values[field.key] = value ?? environmentSetting(ctx.config, field.kind, field.name) ?? '';
    }
  }
  return values;
}

/** `GET /init_config/get_config`: one group's values, or every group's. */
export async function getInitConfig(
  ctx: AppContext,
  group: InitConfigGroup | undefined,
): Promise<InitConfig> {
  const stored = await ctx.secrets.list();
  const names = await usernames(ctx, stored);
  const config: InitConfig = {};
  for (const g of group ? [group] : INIT_CONFIG_GROUPS) {
    config[g] = await groupValues(ctx, g, stored, names);
  }
  return config;
}

export interface InitConfigChange {
  group: InitConfigGroup;
  values: Record<string, string>;
  clear: string[];
}

/**
 * `POST /init_config/set_config` (values already checked by the contract): a secret's empty value
 * leaves it unchanged, a plain field's empty value removes the stored one (the environment's
 * default applies again), `clear` removes stored values. One transaction, one audit row; a call
 * that changes nothing says so.
 */
export async function setInitConfig(
  ctx: AppContext,
  auth: AuthContext,
  change: InitConfigChange,
  audit: AuditTrail,
): Promise<InitConfig> {
  const { group } = change;
  const stored = await ctx.secrets.list();
  // Read before the transaction (SQLite has one connection, which the transaction holds).
  const old = new Map<string, string>();
  for (const field of INIT_CONFIG_FIELDS[group]) {
    if (!stored.some((r) => r.kind === field.kind && r.name === field.name)) continue;
    const value = await ctx.secrets.read(field.kind, field.name);
    if (value !== undefined) old.set(field.key, value);
  }
  const now = ctx.now();
  const before: Record<string, string | null> = {};
  const after: Record<string, string | null> = {};
  await runInTransaction(
    ctx.db,
    async (trx) => {
      for (const field of INIT_CONFIG_FIELDS[group]) {
        const was = old.get(field.key) ?? null;
        const writeOnly = isWriteOnly(field);
        const name = auditName(group, field.key);
        const given = change.values[field.key];
        const cleared = change.clear.includes(field.key) || (given === '' && !writeOnly);
        if (cleared) {
          if (was !== null && (await ctx.secrets.clear(trx, field.kind, field.name))) {
            // A secret's values never reach the trail: it shows them only as "changed".
            before[name] = writeOnly ? 'old' : was;
            after[name] = null;
          }
          continue;
        }
        if (!given || given === was) continue; // a secret left empty: unchanged
        await ctx.secrets.write(trx, {
          kind: field.kind,
          name: field.name,
          value: given,
          by: auth.user.id,
          now,
        });
        before[name] = writeOnly ? (was === null ? null : 'old') : was;
        after[name] = writeOnly ? 'new' : given;
      }
      if (Object.keys(after).length === 0) audit.unchanged();
      else audit.change(before, after);
    },
    { audit },
  );
  return getInitConfig(ctx, group);
}

/** Stores an uploaded PEM file (already checked) sealed; audited as "changed". */
export async function storeCertificate(
  ctx: AppContext,
  auth: AuthContext,
  key: 'private_key' | 'certificate',
  pem: string,
  audit: AuditTrail,
): Promise<InitConfig> {
  const field = INIT_CONFIG_FIELDS.wechat_pay.find((f) => f.key === key)!;
  const had = (await ctx.secrets.list()).some(
    (r) => r.kind === field.kind && r.name === field.name,
  );
  await runInTransaction(
    ctx.db,
    async (trx) => {
      await ctx.secrets.write(trx, {
        kind: field.kind,
        name: field.name,
        value: pem,
        by: auth.user.id,
        now: ctx.now(),
      });
      const name = auditName('wechat_pay', key);
      audit.change({ [name]: had ? 'old' : null }, { [name]: 'new' });
    },
    { audit },
  );
  return getInitConfig(ctx, 'wechat_pay');
}
