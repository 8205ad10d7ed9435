import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

/** Epoch milliseconds (bigint on PostgreSQL, parsed to number; INTEGER on SQLite). */
type Millis = number;
/** 0/1 flags: integers on both engines. */
type Flag = number;

/** User status: 1 normal, 0 disabled (a disabled user cannot log in; its sessions are ended). */
export const USER_STATUS = { disabled: 0, normal: 1 } as const;
/** Domain status: 1 active, 0 revoked. */
export const DOMAIN_STATUS = { revoked: 0, active: 1 } as const;

export interface UsersTable {
  id: Generated<number>;
  /** 0 admin, 1 partner, 2 merchant, 3 agent. */
  user_type: number;
  /** Direct parent (0 for the admin and partners created by the platform). */
  pid: ColumnType<number, number | undefined, number>;
  /** The root partner's id (a partner's own id); 0 for admins. */
  service_id: ColumnType<number, number | undefined, number>;
  /** The agent who referred a merchant. */
  agent_id: number | null;
  username: string;
  password_hash: string;
  name: ColumnType<string, string | undefined, string>;
  nickname: ColumnType<string, string | undefined, string>;
  /** NULL when none (unique when set). */
  mobile: string | null;
  email: ColumnType<string, string | undefined, string>;
  avatar: ColumnType<string, string | undefined, string>;
  job: ColumnType<string, string | undefined, string>;
  organization: ColumnType<string, string | undefined, string>;
  location: ColumnType<string, string | undefined, string>;
  introduction: ColumnType<string, string | undefined, string>;
  personal_website: ColumnType<string, string | undefined, string>;
  certification: ColumnType<Flag, Flag | undefined, Flag>;
  status: ColumnType<number, number | undefined, number>;
  /** Balances: money in minor units (cents); CHECK >= 0 on every one. */
  money: ColumnType<number, number | undefined, number>;
  digital_man_seconds: ColumnType<number, number | undefined, number>;
  voice_clone_count: ColumnType<number, number | undefined, number>;
  image_clone_count: ColumnType<number, number | undefined, number>;
  show_clip_menu: ColumnType<Flag, Flag | undefined, Flag>;
  can_transfer_money: ColumnType<Flag, Flag | undefined, Flag>;
  can_transfer_digital_man: ColumnType<Flag, Flag | undefined, Flag>;
  can_transfer_digital_voice: ColumnType<Flag, Flag | undefined, Flag>;
  open_oem: ColumnType<Flag, Flag | undefined, Flag>;
  /** Per-user price overrides; '' inherits the platform value. */
  digital_man_money_exchange_num: ColumnType<string, string | undefined, string>;
  digital_voice_money_exchange_num: ColumnType<string, string | undefined, string>;
  /** Partners only; unique when set. */
  service_prefix_no: string | null;
  /** Partner tier: 1 OEM with own domain, 2 ordinary; 0 for other users. */
  service_type: ColumnType<number, number | undefined, number>;
  /** -1 = unlimited. */
  merchant_count_limit: ColumnType<number, number | undefined, number>;
  mini_appid: ColumnType<string, string | undefined, string>;
  expire_at: Millis | null;
  remark: ColumnType<string, string | undefined, string>;
  last_login_at: Millis | null;
  last_login_ip: string | null;
  created_at: Millis;
  updated_at: Millis;
  deleted_at: Millis | null;
}

export type SessionKind = 'login' | 'overstep';
export type RevokeReason = 'logout' | 'password_change' | 'password_reset' | 'disabled' | 'admin';

export interface SessionsTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the opaque token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  kind: SessionKind;
  /** Who stepped in (overstep sessions only). */
  overstep_by: number | null;
  ip: string | null;
  created_at: Millis;
  last_seen_at: Millis;
  expires_at: Millis;
  revoked_at: Millis | null;
  revoked_reason: RevokeReason | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: string;
  target_type: string;
  target_id: number | null;
  ip: string | null;
  /** JSON text. */
  detail: string;
  created_at: Millis;
}

export interface DomainsTable {
  id: Generated<number>;
  /** Host only, lower-case, unique. */
  domain: string;
  partner_id: number;
  name: ColumnType<string, string | undefined, string>;
  logo: ColumnType<string, string | undefined, string>;
  favicon: ColumnType<string, string | undefined, string>;
  copyright: ColumnType<string, string | undefined, string>;
  icp_record_number: ColumnType<string, string | undefined, string>;
  police_record: ColumnType<string, string | undefined, string>;
  police_record_number: ColumnType<string, string | undefined, string>;
  money_name: ColumnType<string, string | undefined, string>;
  status: ColumnType<number, number | undefined, number>;
  created_at: Millis;
  updated_at: Millis;
}

export interface PlatformConfigTable {
  name: string;
  value: string;
  group_name: string;
  /** Secrets are write-only: never returned by the public config calls. */
  is_secret: Flag;
  updated_at: Millis;
}

export type SmsPurpose = 'reset' | 'register';

export interface SmsCodesTable {
  id: Generated<number>;
  mobile: string;
  purpose: SmsPurpose;
  /** HMAC-SHA256 of the code (keyed per installation). */
  code_hash: string;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}

export interface LoginThrottleTable {
  /** `account:<name>` or `ip:<address>`. */
  key: string;
  failures: number;
  window_start: Millis;
  locked_until: Millis | null;
}

export const ASSETS = ['money', 'digital_man', 'digital_voice', 'image_clone'] as const;
export type Asset = (typeof ASSETS)[number];

export const LEDGER_TYPES = [
  'recharge',
  'card_redeem',
  'card_issue',
  'transfer_in',
  'transfer_out',
  'exchange',
  'task_freeze',
  'task_settle',
  'task_refund',
  'admin_adjust',
  'trial_credit',
] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

/** Append-only; money rows are never updated or deleted. */
export interface LedgerTable {
  id: Generated<number>;
  user_id: number;
  asset: Asset;
  type: LedgerType;
  /** Signed, in the asset's unit (cents, seconds, count). */
  change: number;
  before: number;
  after: number;
  memo: ColumnType<string, string | undefined, string>;
  related_type: string | null;
  related_id: number | null;
  operator_id: number | null;
  created_at: Millis;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  domains: DomainsTable;
  platform_config: PlatformConfigTable;
  sms_codes: SmsCodesTable;
  login_throttle: LoginThrottleTable;
  ledger: LedgerTable;
}

export type Db = Kysely<Database>;
/** A connection or an open transaction: repo functions accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type DomainRow = Selectable<DomainsTable>;
