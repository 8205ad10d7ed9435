import type { Asset, LedgerType } from '../../../src/api/contract/money';
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

/** Epoch milliseconds (bigint on PostgreSQL, parsed to number; INTEGER on SQLite). */
type Millis = number;
/** 0/1 flags: integers on both engines. */
type Flag = number;

/** User status: 1 normal, 0 disabled (a disabled user cannot log in; its sessions are ended). */
export const USER_STATUS = { disabled: 0, normal: 1 } as const;
/** Domain status: 1 enabled, 0 disabled. */
export const DOMAIN_STATUS = { disabled: 0, active: 1 } as const;

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
  /** Storage quota override in bytes (NULL: the platform's default), docs/domain.md §8. */
  storage_quota_bytes: ColumnType<number | null, number | null | undefined, number | null>;
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

export type AuditResult = 'ok' | 'refused';

/** Append-only (triggers refuse UPDATE and DELETE): docs/architecture.md §Audit. */
export interface AuditLogTable {
  id: Generated<number>;
  /** The session's user; NULL for an anonymous caller. */
  actor_id: ColumnType<number | null, number | null, never>;
  /** The actor's role then (NULL on rows written before 0011). */
  actor_role: ColumnType<string | null, string | null | undefined, never>;
  /** Under a login-as (overstep) session: the user who stepped in. */
  original_actor_id: ColumnType<number | null, number | null | undefined, never>;
  /** `<area>.<verb>`, e.g. `card.add`. */
  action: ColumnType<string, string, never>;
  target_type: ColumnType<string, string, never>;
  /** The resource when the call changed exactly one. */
  target_id: ColumnType<number | null, number | null, never>;
  /** JSON array of every resource id the call changed (`[]` on rows written before 0011). */
  target_ids: ColumnType<string, string | undefined, never>;
  /** JSON `{field: {before?, after?} | "changed"}` (secrets only "changed", mobiles masked). */
  diff: ColumnType<string, string | undefined, never>;
  ip: ColumnType<string | null, string | null | undefined, never>;
  user_agent: ColumnType<string | null, string | null | undefined, never>;
  request_id: ColumnType<string | null, string | null | undefined, never>;
  result: ColumnType<AuditResult, AuditResult | undefined, never>;
  /** The refusal's message id (`money.insufficient`); NULL for `ok`. */
  error_code: ColumnType<string | null, string | null | undefined, never>;
  /** JSON text: free-form facts (rows written before 0011 keep theirs here). */
  detail: ColumnType<string, string | undefined, never>;
  created_at: ColumnType<Millis, Millis, never>;
}

export interface DomainsTable {
  id: Generated<number>;
  /** Host only, lower-case, unique (docs/domain.md §12). */
  hostname: string;
  /** The partner whose brand this is; NULL: the platform's own domain. */
  owner_id: number | null;
  name: ColumnType<string, string | undefined, string>;
  logo: ColumnType<string, string | undefined, string>;
  favicon: ColumnType<string, string | undefined, string>;
  copyright: ColumnType<string, string | undefined, string>;
  icp_record_number: ColumnType<string, string | undefined, string>;
  police_record: ColumnType<string, string | undefined, string>;
  police_record_number: ColumnType<string, string | undefined, string>;
  money_name: ColumnType<string, string | undefined, string>;
  /** `#rrggbb`, or '' for the console's default. */
  theme_color: ColumnType<string, string | undefined, string>;
  dy_auth_publish_show: ColumnType<number, number | undefined, number>;
  expirence_money_show: ColumnType<number, number | undefined, number>;
  saler_show: ColumnType<number, number | undefined, number>;
  status: ColumnType<number, number | undefined, number>;
  created_at: Millis;
  updated_at: Millis;
}

/** A partner's override of a platform price for its subtree (docs/domain.md §12). */
export interface PartnerConfigTable {
  partner_id: number;
  name: string;
  value: string;
  updated_at: Millis;
  updated_by: number;
}

/** A user's own setting (docs/domain.md §12); no row = the default. */
export interface UserConfigTable {
  user_id: number;
  name: string;
  value: string;
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

export { ASSETS } from '../../../src/api/contract/money';
export type { Asset, LedgerType } from '../../../src/api/contract/money';

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
  /** A server-written memo's message id and its parameters (JSON); null for a person's text. */
  memo_id: ColumnType<string | null, string | null | undefined, string | null>;
  memo_params: ColumnType<string | null, string | null | undefined, string | null>;
  related_type: string | null;
  related_id: number | null;
  operator_id: number | null;
  /** The hold the row moves (paid work's freeze, refund; migration 0013). */
  hold_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Millis;
}

/** The platform's own accounts (balances may be negative). */
export const SYSTEM_ACCOUNTS = ['issuance', 'cards', 'payments', 'revenue', 'task_hold'] as const;
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];

export interface SystemAccountsTable {
  account: SystemAccount;
  asset: Asset;
  balance: number;
}

/** Append-only, like the users' ledger. */
export interface SystemLedgerTable {
  id: Generated<number>;
  account: SystemAccount;
  asset: Asset;
  change: number;
  before: number;
  after: number;
  /** The movement's ledger type (`task_settle`…); null for rows written before migration 0007. */
  type: ColumnType<LedgerType | null, LedgerType | null | undefined, LedgerType | null>;
  related_type: string | null;
  related_id: number | null;
  /** The hold the row moves (task_hold and revenue rows of paid work; migration 0013). */
  hold_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Millis;
}

/** An estimate held for paid work (docs/domain.md §9; migration 0013). */
export interface LedgerHoldsTable {
  id: Generated<number>;
  user_id: number;
  asset: Asset;
  related_type: string;
  related_id: number;
  /** Units held in (the freeze and any extension); settled + refunded ≤ amount. */
  amount: number;
  settled: ColumnType<number, number | undefined, number>;
  refunded: ColumnType<number, number | undefined, number>;
  created_at: Millis;
  updated_at: Millis;
  /** Null while open; a closed hold holds nothing (settled + refunded = amount). */
  closed_at: Millis | null;
}

/** A settled or refunded part of a hold: unique per hold and part key. */
export interface LedgerHoldMovesTable {
  id: Generated<number>;
  hold_id: number;
  part: string;
  kind: 'settle' | 'refund';
  amount: number;
  created_at: Millis;
}

/** A money call's `Idempotency-Key`: claimed in the call's transaction, then its reply stored. */
export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  route: string;
  /** SHA-256 of the route and the request body. */
  request_hash: string;
  /** JSON of the reply's data (null while the claiming transaction runs). */
  response: string | null;
  created_at: Millis;
}

export interface TransfersTable {
  id: Generated<number>;
  transfer_no: string;
  from_user_id: number;
  to_user_id: number;
  asset: Asset;
  amount: number;
  from_before: number;
  from_after: number;
  to_before: number;
  to_after: number;
  remark: ColumnType<string, string | undefined, string>;
  /** As the ledger's memo_id / memo_params: set only for a remark the server wrote. */
  remark_id: ColumnType<string | null, string | null | undefined, string | null>;
  remark_params: ColumnType<string | null, string | null | undefined, string | null>;
  operator_id: number;
  created_at: Millis;
}

export const CARD_ASSETS = ['money', 'digital_man', 'digital_voice'] as const;
export type CardAsset = (typeof CARD_ASSETS)[number];

export interface RechargeCardsTable {
  id: Generated<number>;
  card_no: string;
  card_pwd: string;
  batch_no: string;
  asset: CardAsset;
  /** In the asset's unit: cents, seconds, count. */
  face_value: number;
  /** Display only, cents. */
  price: ColumnType<number, number | undefined, number>;
  creator_id: number;
  owner_id: number;
  service_id: number;
  /** Whose balance paid the face value; null when the platform minted the card. */
  paid_by: number | null;
  /** 0 unused, 1 used, 2 void ("expired" is computed from expire_at). */
  status: ColumnType<number, number | undefined, number>;
  used_by: number | null;
  used_at: Millis | null;
  expire_at: Millis | null;
  remark_admin: ColumnType<string, string | undefined, string>;
  remark_owner: ColumnType<string, string | undefined, string>;
  created_at: Millis;
  updated_at: Millis;
  deleted_at: Millis | null;
}

/** Per-day card number sequences (`PA260322` → last value used). */
export interface CardSequencesTable {
  prefix: string;
  last_value: number;
}

export interface RechargePackagesTable {
  id: Generated<number>;
  /** null: a platform package. */
  owner_id: number | null;
  name: string;
  /** Cents, CNY. */
  price: number;
  money: number;
  gift_money: ColumnType<number, number | undefined, number>;
  sort: ColumnType<number, number | undefined, number>;
  status: ColumnType<number, number | undefined, number>;
  description: ColumnType<string, string | undefined, string>;
  created_at: Millis;
  updated_at: Millis;
  deleted_at: Millis | null;
}

export const PAY_STATUSES = ['pending', 'paid', 'closed', 'refunded'] as const;
export type PayStatus = (typeof PAY_STATUSES)[number];

export interface RechargeOrdersTable {
  id: Generated<number>;
  order_no: string;
  user_id: number;
  service_id: number;
  package_id: number;
  package_name: string;
  amount: number;
  money: number;
  gift_money: ColumnType<number, number | undefined, number>;
  pay_way: string;
  pay_status: ColumnType<PayStatus, PayStatus | undefined, PayStatus>;
  transaction_id: string | null;
  paid_at: Millis | null;
  closed_at: Millis | null;
  expires_at: Millis;
  created_at: Millis;
}

/** Short-lived single-use download tickets (the session token never appears in a URL). */
export interface DownloadTicketsTable {
  id: Generated<number>;
  /** SHA-256 of the ticket. */
  ticket_hash: string;
  user_id: number;
  kind: string;
  /** JSON of the query the ticket is bound to. */
  query: string;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}

/** The embedded job runner's queue (server/platform/jobs/embedded.ts). */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON of the job's data. */
  data: string;
  /** waiting (delayed while `run_at` is ahead), active, completed, failed, cancelled. */
  state: string;
  priority: ColumnType<number, number | undefined, number>;
  run_at: Millis;
  attempts_made: ColumnType<number, number | undefined, number>;
  max_attempts: number;
  backoff_ms: number;
  /** How often its worker died under it (the reaper's count). */
  stalls: ColumnType<number, number | undefined, number>;
  progress: ColumnType<number, number | undefined, number>;
  cancel_requested: ColumnType<number, number | undefined, number>;
  locked_by: string | null;
  locked_until: Millis | null;
  last_error: string | null;
  /** A recurring job's tick (`kind@tick`): one row per tick. */
  unique_key: string | null;
  created_at: Millis;
  finished_at: Millis | null;
}

/** Upload grants and form uploads (migration 0006). */
export interface UploadsTable {
  id: Generated<number>;
  /** The random key the browser names the upload by (`upload_key`). */
  upload_key: string;
  owner_id: number;
  /** A resource type (RESOURCE_TYPES). */
  type: string;
  /** The user's file name (display only, cleaned). */
  name: string;
  /** Declared size in bytes. */
  size: number;
  storage_key: string;
  /** tus, multipart (S3) or form (oss_upload). */
  method: string;
  s3_upload_id: string | null;
  /** pending, uploaded, used, refused, expired. */
  state: string;
  /** A validation message id when refused. */
  refused_reason: string | null;
  created_at: Millis;
  expires_at: Millis;
  finished_at: Millis | null;
}

/** Resource folders, one flat list per owner (docs/domain.md §8). */
export interface ResourceGroupsTable {
  id: Generated<number>;
  owner_id: number;
  /** '' for the works group (its name is shown in the reader's language). */
  name: string;
  created_at: Millis;
  /** `works`: the owner's one group of finished outputs (migration 0031); null: a user's. */
  kind: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The resource library (docs/domain.md §8). */
export interface ResourcesTable {
  id: Generated<number>;
  owner_id: number;
  group_id: number | null;
  type: string;
  name: string;
  /** The upload it came from; null for a work (migration 0031). */
  upload_id: number | null;
  storage_key: string;
  poster_key: string | null;
  content_type: string;
  size: number;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  codec: string | null;
  /**
   * 1 when the file has an audio stream, 0 when not (media only); NULL when not known yet: the
   * renderer probes the file once and writes it back (migration 0008).
   */
  has_audio: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Millis;
  updated_at: Millis;
  /** Hidden from the library; the file stays while a task refers to it. */
  deleted_at: Millis | null;
  /** When the sweep removed the file (no task referred to it any more). */
  file_deleted_at: Millis | null;
  /**
   * A work (migration 0031): `video_output` or `dh_video` and its id, whose stored file this row
   * shows (the same key, no copy); null for uploads.
   */
  source_kind: ColumnType<string | null, string | null | undefined, string | null>;
  source_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A task's use of a resource: while one exists, a deleted resource's file is kept. */
export interface ResourceRefsTable {
  resource_id: number;
  task_kind: string;
  task_id: number;
  created_at: Millis;
}

/** A mixed-cut or clip task (migration 0007). */
export interface VideoTasksTable {
  id: Generated<number>;
  owner_id: number;
  /** mixed | clip */
  kind: string;
  name: string;
  /** pending, running, done, partly_done, failed, cancelled (TASK_STATUSES). */
  status: string;
  /** JSON of the body it was added with. */
  params: string;
  total: number;
  /** Cents per output, fixed at add (retries charge it again). */
  unit_price: number;
  frozen: ColumnType<number, number | undefined, number>;
  settled: ColumnType<number, number | undefined, number>;
  refunded: ColumnType<number, number | undefined, number>;
  stalled: ColumnType<Flag, Flag | undefined, Flag>;
  /** The last time an output moved (the stall sweep's clock). */
  progress_at: Millis;
  created_at: Millis;
  updated_at: Millis;
  finished_at: Millis | null;
  deleted_at: Millis | null;
  /** The narration's stored speech, its length and sentence times (JSON); NULL until made. */
  narration_key: ColumnType<string | null, string | null | undefined, string | null>;
  narration_ms: ColumnType<number | null, number | null | undefined, number | null>;
  narration_lines: ColumnType<string | null, string | null | undefined, string | null>;
  /** `digital_man` seconds per second of narration, fixed at add (0: none or free). */
  narration_price: ColumnType<number, number | undefined, number>;
}

export type OutputBilling = 'held' | 'settled' | 'refunded';

/** One output of a video task. */
export interface VideoOutputsTable {
  id: Generated<number>;
  task_id: number;
  /** 1-based within the task. */
  idx: number;
  /** queued, rendering, done, failed, cancelled (OUTPUT_STATUSES). */
  status: string;
  /** JSON `{shots: number[], music: number | null}` (a clip: its one video as the shot). */
  combination: string;
  planned_ms: number;
  billing: OutputBilling;
  /** Cents frozen for this output (by the last freeze). */
  price: number;
  attempts: ColumnType<number, number | undefined, number>;
  /** The ledger hold that paid its last freeze (migration 0013). */
  hold_id: ColumnType<number | null, number | null | undefined, number | null>;
  job_id: string | null;
  progress: ColumnType<number, number | undefined, number>;
  storage_key: string | null;
  poster_key: string | null;
  duration_ms: number | null;
  size: number | null;
  /**
   * The CRC-32 of the file, computed when it was stored (migration 0036); NULL for older rows:
   * "download all" then checksums the bytes as they stream.
   */
  crc32: ColumnType<number | null, number | null | undefined, number | null>;
  width: number | null;
  height: number | null;
  /** A server message id (rendered in the reader's language) and its params (JSON). */
  reason_id: string | null;
  reason_params: string | null;
  /** The renderer's last lines. */
  reason_detail: string | null;
  started_at: Millis | null;
  finished_at: Millis | null;
  updated_at: Millis;
}

/** Columns every digital-human work row has (migration 0009). */
interface DhWorkColumns {
  id: Generated<number>;
  /** Clones: queued, training, ready, failed; videos: queued, creating, done, failed. */
  status: string;
  /** `embedded` | `http`: the provider that does (did) its work. */
  provider: string;
  /** The vendor's job id once submitted (a restarted job resumes it). */
  vendor_job_id: string | null;
  /** Our job runner's job id. */
  job_id: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  progress: ColumnType<number, number | undefined, number>;
  queue_position: number | null;
  billing: OutputBilling;
  /** Units (of the row's asset) frozen at submit, settled, given back. */
  cost: ColumnType<number, number | undefined, number>;
  settled: ColumnType<number, number | undefined, number>;
  refunded: ColumnType<number, number | undefined, number>;
  reason_id: string | null;
  reason_params: string | null;
  reason_detail: string | null;
  created_at: Millis;
  updated_at: Millis;
  started_at: Millis | null;
  finished_at: Millis | null;
  deleted_at: Millis | null;
}

/** An image clone (avatar); billed in `image_clone` units. */
export interface DhImageClonesTable extends DhWorkColumns {
  owner_id: number;
  name: string;
  /** standard | advanced (IMAGE_CLONE_TIERS). */
  tier: string;
  video_id: number;
  consent_video_id: number;
  poster_key: string | null;
  loop_key: string | null;
  width: number | null;
  height: number | null;
  /** The vendor's handle of the avatar (JSON); null for the embedded provider. */
  vendor_ref: string | null;
}

/** A voice clone, or (owner_id null) a public voice; billed in `digital_voice` units. */
export interface DhVoiceClonesTable extends DhWorkColumns {
  owner_id: number | null;
  /** A public voice's provider key (unique); null for a clone. */
  public_key: string | null;
  name: string;
  /** female | male */
  gender: string;
  audio_id: number | null;
  /** The provider's voice (JSON); null until ready. */
  profile: string | null;
  demo_key: string | null;
}

/** A digital-human video; billed in `digital_man` seconds. */
export interface DhVideosTable extends DhWorkColumns {
  owner_id: number;
  name: string;
  /** JSON of the body it was added with. */
  params: string;
  avatar_id: number;
  voice_id: number;
  /** A resource group of the owner's. */
  folder_id: number;
  template_id: number | null;
  /** JSON: the template as it was at submit (migration 0035; null for older videos). */
  template_settings: ColumnType<string | null, string | null | undefined, string | null>;
  estimated_seconds: number;
  /** `digital_man` seconds charged per second of video, fixed at add. */
  unit_cost: number;
  speech_key: string | null;
  /** The stored speech's length (migration 0010); null until stored. */
  speech_ms: ColumnType<number | null, number | null | undefined, number | null>;
  storage_key: string | null;
  poster_key: string | null;
  duration_ms: number | null;
  size: number | null;
  width: number | null;
  height: number | null;
  resubmitted_from: number | null;
  progress_at: Millis;
}

export interface DhTemplatesTable {
  id: Generated<number>;
  /** A built-in template's key: its name's message id is `dhTemplate.<key>`; null for others. */
  key: string | null;
  /** The platform's (null) or a partner's or merchant's own (migration 0035). */
  owner_id: number | null;
  /** The name given (null: a built-in template's translated name). */
  name: string | null;
  ratio: string;
  width: number;
  height: number;
  /** JSON TemplateLayout. */
  layout: string;
  /** Unused (the built-in templates' picture, never made). */
  cover_key: string | null;
  /** Resources of the owner's library (own templates), held by `resource_refs` `dh_template`. */
  background_resource_id: number | null;
  cover_resource_id: number | null;
  demo_resource_id: number | null;
  music_resource_id: number | null;
  /** Platform images' addresses (the platform's templates). */
  background_url: string | null;
  cover_url: string | null;
  sort: ColumnType<number, number | undefined, number>;
  created_at: Millis | null;
  updated_at: Millis | null;
  deleted_at: Millis | null;
}

/** A secret of an outside service, sealed for its row (docs/architecture.md §Secrets). */
export interface IntegrationSettingsTable {
  /** The integration kind (`digital-human`, `payment`, …). */
  kind: string;
  /** The field (`api_key`). */
  name: string;
  /** `v1:<key id>:<iv>:<tag>:<ciphertext>`, sealed for `integration_settings:sealed:<kind>.<name>`. */
  sealed: string;
  /** The value's last four characters; null for a value too short to show any. */
  last4: string | null;
  updated_at: Millis;
  updated_by: number | null;
}

/**
 * An S3-compatible bucket the system init settings put files in (docs/decisions.md "Storage
 * places"), with the AccessKey last in use for it.
 */
export interface StoragePlacesTable {
  id: Generated<number>;
  /** '' for AWS itself. */
  endpoint: string;
  bucket: string;
  region: string;
  access_key: string | null;
  /** The secret key sealed for `storage_places:secret_key:<id>`. */
  secret_sealed: string | null;
  created_at: Millis;
  updated_at: Millis;
}

/** The place of a file written to a bucket of the settings (none: the environment's storage). */
export interface FilePlacesTable {
  storage_key: string;
  place_id: number;
  created_at: Millis;
}

/** A notification of one user's (docs/domain.md §18): a message id + params, unread or read. */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: ColumnType<number, number, never>;
  /** The event: `video_task.done`, `dh_video.failed`, … */
  kind: ColumnType<string, string, never>;
  /** A server message id (rendered in the reader's locale) and its JSON params. */
  message_id: ColumnType<string, string, never>;
  params: ColumnType<string, string | undefined, never>;
  /** What it is about (the console links to it). */
  subject_type: ColumnType<string, string, never>;
  subject_id: ColumnType<number, number, never>;
  /** Unique per event: the same event written twice is one row. */
  event_key: ColumnType<string, string, never>;
  created_at: ColumnType<Millis, Millis, never>;
  /** Null while unread; the only column that changes. */
  read_at: ColumnType<Millis | null, Millis | null | undefined, Millis | null>;
}

/** A matrix account group (docs/domain.md §19). */
export interface MatrixAccountGroupsTable {
  id: Generated<number>;
  owner_id: ColumnType<number, number, never>;
  name: string;
  created_at: ColumnType<Millis, Millis, never>;
}

/** A bound social account; its tokens sealed (docs/domain.md §19). */
export interface MatrixAccountsTable {
  id: Generated<number>;
  owner_id: ColumnType<number, number, never>;
  platform: ColumnType<string, string, never>;
  /** 1: an account of the embedded sandbox platform. */
  sandbox: ColumnType<number, number, never>;
  /** 1: added by hand, its posts published by hand (no publishing API). */
  assisted: ColumnType<number, number | undefined, never>;
  open_id: ColumnType<string, string, never>;
  nickname: string;
  avatar: string;
  fans: number;
  group_id: number | null;
  /** normal | expiring | expired | revoked */
  status: string;
  /** Sealed (`matrix_accounts:access_token:<id>`). */
  access_token: string;
  /** Sealed (`matrix_accounts:refresh_token:<id>`). */
  refresh_token: string;
  expires_at: Millis;
  refresh_expires_at: Millis;
  renewals_left: number;
  last_refresh_at: Millis | null;
  /** A server message id: why the last refresh failed. */
  last_error: string | null;
  refresh_lease_until: Millis | null;
  created_at: ColumnType<Millis, Millis, never>;
  updated_at: Millis;
  deleted_at: Millis | null;
}

/** A batch authorisation link (docs/domain.md §19). */
export interface MatrixBatchLinksTable {
  id: Generated<number>;
  owner_id: ColumnType<number, number, never>;
  platform: ColumnType<string, string, never>;
  group_id: ColumnType<number | null, number | null, never>;
  /** SHA-256 (hex) of the token: how a visitor's token is found. */
  token_hash: ColumnType<string, string, never>;
  /** The token, sealed (`matrix_batch_links:token:<id>`). */
  token: string;
  expires_at: ColumnType<Millis, Millis, never>;
  max_uses: ColumnType<number | null, number | null, never>;
  uses: ColumnType<number, number | undefined, number>;
  revoked_at: Millis | null;
  created_at: ColumnType<Millis, Millis, never>;
}

/** An authorisation in progress (single use, 10 minutes). */
export interface MatrixOauthStatesTable {
  id: Generated<number>;
  nonce: ColumnType<string, string, never>;
  user_id: ColumnType<number, number, never>;
  platform: ColumnType<string, string, never>;
  sandbox: ColumnType<number, number, never>;
  group_id: ColumnType<number | null, number | null, never>;
  batch_link_id: ColumnType<number | null, number | null | undefined, never>;
  expires_at: ColumnType<Millis, Millis, never>;
  used_at: Millis | null;
  created_at: ColumnType<Millis, Millis, never>;
}

/** The sandbox platform (module `sandbox-platform`; times on the sandbox's clock, epoch ms). */
export interface SandboxPlatformAccountsTable {
  open_id: string;
  nickname: string;
  /** A path under the sandbox (`/sandbox-platform/avatar/<open_id>.svg`). */
  avatar: string;
  fans: number;
  /** 1: the owner withdrew every authorisation (until it authorises again). */
  revoked: ColumnType<number, number | undefined, number>;
  created_at: Millis;
}

export interface SandboxPlatformCodesTable {
  code: string;
  open_id: string;
  scope: string;
  redirect_uri: string;
  expires_at: Millis;
  used_at: ColumnType<Millis | null, Millis | null | undefined, Millis | null>;
}

export interface SandboxPlatformAccessTokensTable {
  token: string;
  open_id: string;
  /** The authorisation it belongs to. */
  grant_id: string;
  scope: string;
  expires_at: Millis;
}

export interface SandboxPlatformRefreshTokensTable {
  token: string;
  open_id: string;
  grant_id: string;
  scope: string;
  /** Renewals of the authorisation so far (at most 5). */
  renewals: ColumnType<number, number | undefined, number>;
  expires_at: Millis;
}

export interface SandboxPlatformVideosTable {
  video_id: string;
  open_id: string;
  size: number;
  width: number;
  height: number;
  duration_ms: number;
  created_at: Millis;
}

export interface SandboxPlatformPostsTable {
  id: Generated<number>;
  item_id: string;
  open_id: string;
  video_id: string;
  title: string;
  created_at: Millis;
  /** Set once published. */
  share_url: string | null;
  /** `reviewing` | `published`. */
  status: string;
}

export interface SandboxPlatformFaultsTable {
  id: Generated<number>;
  open_id: string;
  /** `fail` (answer `code`) or `lose_reply` (create_video: create, then drop the connection). */
  kind: string;
  code: number | null;
  remaining: number;
}

export interface SandboxPlatformClockTable {
  /** Always 1. */
  id: number;
  offset_seconds: number;
}

/** A release plan (docs/domain.md §20); its lists as JSON text. */
export interface MatrixPlansTable {
  id: Generated<number>;
  owner_id: ColumnType<number, number, never>;
  name: string;
  /** not_started | running | done | paused | cancelled */
  status: string;
  timezone: string;
  start_date: string;
  end_date: string;
  slots: string;
  daily_max: number;
  titles: string;
  topics: string;
  location: string | null;
  account_ids: string;
  /** `[{type, id, name}]` */
  media: string;
  total: number;
  started_at: Millis | null;
  created_at: ColumnType<Millis, Millis, never>;
  updated_at: Millis;
}

/** One publish of a plan (docs/domain.md §20). */
export interface MatrixPostsTable {
  id: Generated<number>;
  plan_id: ColumnType<number, number, never>;
  owner_id: ColumnType<number, number, never>;
  account_id: ColumnType<number, number, never>;
  media_type: ColumnType<string, string, never>;
  media_id: ColumnType<number, number, never>;
  title: string;
  scheduled_at: Millis;
  /** waiting | publishing | under_review | published | failed | unconfirmed | skipped | missed | cancelled */
  status: string;
  lease_until: Millis | null;
  dispatched_at: Millis | null;
  /** When a publishing run took the post (null: queued, not taken yet). */
  claimed_at: Millis | null;
  platform_media_id: string | null;
  create_sent_at: Millis | null;
  platform_post_id: string | null;
  share_url: string | null;
  reason_kind: string | null;
  /** A server message id and its JSON params. */
  reason_id: string | null;
  reason_params: string | null;
  platform_code: number | null;
  platform_text: string | null;
  retryable: ColumnType<number, number | undefined, number>;
  published_at: Millis | null;
  plays: ColumnType<number, number | undefined, number>;
  likes: ColumnType<number, number | undefined, number>;
  comments: ColumnType<number, number | undefined, number>;
  shares: ColumnType<number, number | undefined, number>;
  metrics_at: Millis | null;
  updated_at: Millis;
  /** The post's place in its plan's schedule, 1…n in time order (a page is a range of it). */
  seq: ColumnType<number, number, never>;
}

/** A plan's posts per status, kept by triggers on matrix_posts (migration 0018). */
export interface MatrixPlanCountsTable {
  plan_id: ColumnType<number, never, never>;
  status: ColumnType<string, never, never>;
  n: ColumnType<number, never, never>;
}

/** A published post's numbers as last read on a day (docs/domain.md §20). */
export interface MatrixPostDaysTable {
  post_id: number;
  /** `YYYY-MM-DD` in Asia/Shanghai. */
  day: string;
  owner_id: number;
  plays: number;
  likes: number;
  comments: number;
  shares: number;
}

/** An AI tool: a prompt template and its declared variables (migration 0023, docs/domain.md §23). */
export interface AiToolsTable {
  id: Generated<number>;
  /** Unique, [a-z0-9_]{2,40}. */
  key: string;
  name: string;
  /** '' = the AI-text integration's configured model. */
  model: string;
  template: string;
  /** JSON array of the declared variables' names. */
  variables: string;
  /** 'call' | 'item' | 'thousand_tokens'. */
  unit: string;
  /** Money in minor units. */
  cost: number;
  /** 'enabled' | 'disabled'. */
  status: string;
  created_at: Millis;
  updated_at: Millis;
}

/** Industries, two levels: parent_id 0 for a top-level one (migration 0023). */
export interface IndustriesTable {
  id: Generated<number>;
  parent_id: number;
  name: string;
  sort: number;
  created_at: Millis;
  updated_at: Millis;
}

/** Scripts: spoken copy, titles, topics, each of an industry (migration 0023). */
export interface ScriptsTable {
  id: Generated<number>;
  industry_id: number;
  /** 'copy' | 'title' | 'topic'. */
  kind: string;
  content: string;
  created_at: Millis;
  updated_at: Millis;
}

/** Articles (migration 0025; docs/domain.md "Articles and agreements"): owner 0 is the platform, else a partner. */
export interface ArticlesTable {
  id: Generated<number>;
  owner_id: ColumnType<number, number, never>;
  category: string;
  title: string;
  cover: ColumnType<string, string | undefined, string>;
  /** Sanitised HTML (server/modules/articles/sanitise.ts). */
  content: string;
  sort: number;
  status: string;
  created_by: ColumnType<number, number, never>;
  created_at: ColumnType<Millis, Millis, never>;
  updated_at: Millis;
  deleted_at: ColumnType<Millis | null, Millis | null | undefined, Millis | null>;
}

/** One version of an agreement (migration 0025): never changed once written. */
export interface AgreementsTable {
  id: Generated<number>;
  kind: ColumnType<string, string, never>;
  owner_id: ColumnType<number, number, never>;
  version: ColumnType<number, number, never>;
  content: ColumnType<string, string, never>;
  effective_at: ColumnType<Millis, Millis, never>;
  created_by: ColumnType<number, number, never>;
  created_at: ColumnType<Millis, Millis, never>;
}

/** A user's acceptance of an agreement version (migration 0025). */
export interface AgreementAcceptancesTable {
  user_id: ColumnType<number, number, never>;
  agreement_id: ColumnType<number, number, never>;
  accepted_at: ColumnType<Millis, Millis, never>;
}

/** An uploaded platform image (migration 0026): a logo, a favicon or a content image. */
export interface PlatformImagesTable {
  id: Generated<number>;
  /** The public file name (`<32 hex>.<ext>`): served at `/api/v1/images/<name>`. */
  name: ColumnType<string, string, never>;
  /** 0: the platform's; else the partner whose own image it is. */
  owner_id: ColumnType<number, number, never>;
  /** logo, favicon or content (PLATFORM_IMAGE_PURPOSES). */
  purpose: ColumnType<string, string, never>;
  storage_key: ColumnType<string, string, never>;
  /** The checked type it is served as. */
  content_type: ColumnType<string, string, never>;
  size: ColumnType<number, number, never>;
  width: ColumnType<number, number, never>;
  height: ColumnType<number, number, never>;
  /** The uploader's file name (display only). */
  original_name: ColumnType<string, string, never>;
  created_by: ColumnType<number, number, never>;
  created_at: ColumnType<Millis, Millis, never>;
}

/** A person's named video task settings (migration 0030). */
export interface VideoTaskPresetsTable {
  id: Generated<number>;
  owner_id: ColumnType<number, number, never>;
  name: string;
  /** mixed | clip */
  kind: string;
  /** JSON of a task body as `add` takes it. */
  body: string;
  created_at: ColumnType<Millis, Millis, never>;
  updated_at: Millis;
}

/** A batch of video tasks added from a CSV file under one ledger hold (migration 0030). */
export interface VideoTaskBatchesTable {
  id: Generated<number>;
  owner_id: ColumnType<number, number, never>;
  name: ColumnType<string, string, never>;
  tasks: ColumnType<number, number, never>;
  /** Cents the batch's hold froze. */
  frozen: ColumnType<number, number, never>;
  created_at: ColumnType<Millis, Millis, never>;
}

/** A free preview render of a task body (migration 0030). */
export interface VideoPreviewsTable {
  id: Generated<number>;
  owner_id: ColumnType<number, number, never>;
  /** queued, rendering, done, failed */
  status: string;
  params: ColumnType<string, string, never>;
  job_id: string | null;
  storage_key: string | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  /** From the claim to the stored file. */
  render_ms: number | null;
  reason_id: string | null;
  created_at: ColumnType<Millis, Millis, never>;
  finished_at: Millis | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  audit_log: AuditLogTable;
  domains: DomainsTable;
  platform_config: PlatformConfigTable;
  partner_config: PartnerConfigTable;
  user_config: UserConfigTable;
  sms_codes: SmsCodesTable;
  login_throttle: LoginThrottleTable;
  ledger: LedgerTable;
  system_accounts: SystemAccountsTable;
  system_ledger: SystemLedgerTable;
  ledger_holds: LedgerHoldsTable;
  ledger_hold_moves: LedgerHoldMovesTable;
  idempotency_keys: IdempotencyKeysTable;
  transfers: TransfersTable;
  recharge_cards: RechargeCardsTable;
  card_sequences: CardSequencesTable;
  recharge_packages: RechargePackagesTable;
  recharge_orders: RechargeOrdersTable;
  download_tickets: DownloadTicketsTable;
  jobs: JobsTable;
  uploads: UploadsTable;
  resource_groups: ResourceGroupsTable;
  resources: ResourcesTable;
  resource_refs: ResourceRefsTable;
  video_tasks: VideoTasksTable;
  video_outputs: VideoOutputsTable;
  dh_image_clones: DhImageClonesTable;
  dh_voice_clones: DhVoiceClonesTable;
  dh_videos: DhVideosTable;
  dh_templates: DhTemplatesTable;
  integration_settings: IntegrationSettingsTable;
  storage_places: StoragePlacesTable;
  file_places: FilePlacesTable;
  notifications: NotificationsTable;
  articles: ArticlesTable;
  agreements: AgreementsTable;
  agreement_acceptances: AgreementAcceptancesTable;
  platform_images: PlatformImagesTable;
  sandbox_platform_accounts: SandboxPlatformAccountsTable;
  sandbox_platform_codes: SandboxPlatformCodesTable;
  sandbox_platform_access_tokens: SandboxPlatformAccessTokensTable;
  sandbox_platform_refresh_tokens: SandboxPlatformRefreshTokensTable;
  sandbox_platform_videos: SandboxPlatformVideosTable;
  sandbox_platform_posts: SandboxPlatformPostsTable;
  sandbox_platform_faults: SandboxPlatformFaultsTable;
  sandbox_platform_clock: SandboxPlatformClockTable;
  matrix_account_groups: MatrixAccountGroupsTable;
  matrix_accounts: MatrixAccountsTable;
  matrix_oauth_states: MatrixOauthStatesTable;
  matrix_batch_links: MatrixBatchLinksTable;
  matrix_plans: MatrixPlansTable;
  matrix_posts: MatrixPostsTable;
  matrix_post_days: MatrixPostDaysTable;
  matrix_plan_counts: MatrixPlanCountsTable;
  ai_tools: AiToolsTable;
  industries: IndustriesTable;
  scripts: ScriptsTable;
  video_task_presets: VideoTaskPresetsTable;
  video_task_batches: VideoTaskBatchesTable;
  video_previews: VideoPreviewsTable;
}

export type Db = Kysely<Database>;
/** A connection or an open transaction: repo functions accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type DomainRow = Selectable<DomainsTable>;
export type RechargeCardRow = Selectable<RechargeCardsTable>;
export type RechargePackageRow = Selectable<RechargePackagesTable>;
export type RechargeOrderRow = Selectable<RechargeOrdersTable>;
