/**
 * The customer form's draft (strings of the fields, held by its dialog machine: docs/architecture.md
 * "Forms") and the payload made of it: which call saves it and the contract schema the server
 * validates that call with.
 */
import {
  addByServiceBody,
  addCustomerBody,
  editByServiceBody,
  editCustomerBody,
  type CustomerRow,
} from '../../api/contract/customers';
import type { z } from 'zod';
import { dayRange } from '../../components/dates';
import type { CustomerDialogForm } from '../../machines/customers/customer-dialog';
import { fieldErrors } from '../hooks/zod-errors';

/** Which call saves the customer form: the admin's add / edit or the partner's own. */
export type FormEndpoint = 'add' | 'edit' | 'addByService' | 'editByService';
export interface FormPayload {
  endpoint: FormEndpoint;
  body: Record<string, unknown>;
}

export interface Values {
  username: string;
  password: string;
  name: string;
  mobile: string;
  email: string;
  remark: string;
  expireDate: string;
  serviceId: string;
  agentId: string;
  trialMoney: string;
  prefix: string;
  tier: string;
  limit: string;
  openOem: boolean;
}

/** The form key of each payload field (for the schema's messages). */
const FIELD_OF: Record<string, keyof Values> = {
  service_prefix_no: 'prefix',
  service_type: 'tier',
  merchant_count_limit: 'limit',
  open_oem: 'openOem',
  service_id: 'serviceId',
  agent_id: 'agentId',
  trial_money: 'trialMoney',
  expire_at: 'expireDate',
};

const two = (n: number) => String(n).padStart(2, '0');
const dateOf = (ms: number | null) => {
  if (ms === null) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
};

export function initialValues(row: CustomerRow | null, defaultLimit: string): Values {
  return {
    username: row?.username ?? '',
    password: '',
    name: row?.name ?? '',
    mobile: row?.mobile ?? '',
    email: row?.email ?? '',
    remark: row?.remark ?? '',
    expireDate: dateOf(row?.expire_at ?? null),
    serviceId: row ? String(row.service_id) : '',
    agentId: row?.agent_id ? String(row.agent_id) : '',
    trialMoney: '',
    prefix: row?.service_prefix_no ?? '',
    tier: String(row?.service_type || 2),
    limit: String(row?.merchant_count_limit ?? defaultLimit),
    openOem: row?.open_oem === 1,
  };
}

export interface FormSettings {
  isAdmin: boolean;
  userType: 1 | 2 | 3;
  /** The system settings: the agent picker and trial credit (merchants only). */
  salerShow: boolean;
  trialShow: boolean;
  defaultLimit: string;
  moneyName: string;
}

/** The payload and the schema the server validates it with. */
function payloadOf(
  v: Values,
  row: CustomerRow | null,
  s: FormSettings,
): { payload: FormPayload; schema: z.ZodType } {
  const expire = v.expireDate ? (dayRange(v.expireDate, v.expireDate).end ?? null) : null;
  const profile: Record<string, unknown> = {
    name: v.name.trim(),
    mobile: v.mobile.trim(),
    email: v.email.trim(),
    remark: v.remark,
    expire_at: expire,
  };
  const merchant = s.userType === 2;
  const partner = s.userType === 1;
  const agent = merchant && s.salerShow ? { agent_id: v.agentId ? v.agentId : null } : {};
  const partnerFields = partner
    ? {
        ...(v.prefix.trim() !== (row?.service_prefix_no ?? '') || !row
          ? { service_prefix_no: v.prefix }
          : {}),
        service_type: Number(v.tier),
        merchant_count_limit: v.limit.trim() === '' ? Number.NaN : Number(v.limit),
        open_oem: v.openOem ? 1 : 0,
      }
    : {};
  if (row) {
    const body = { id: row.id, ...profile, ...agent, ...(s.isAdmin ? partnerFields : {}) };
    return s.isAdmin
      ? { payload: { endpoint: 'edit', body }, schema: editCustomerBody }
      : { payload: { endpoint: 'editByService', body }, schema: editByServiceBody };
  }
  const account = { user_type: s.userType, username: v.username.trim(), password: v.password };
  const created = Object.fromEntries(
    Object.entries(profile).filter(([, x]) => x !== '' && x !== null),
  );
  if (s.isAdmin) {
    const service = partner ? {} : { service_id: v.serviceId };
    const body = {
      ...account,
      ...created,
      ...service,
      ...partnerFields,
      ...(v.agentId ? agent : {}),
    };
    return { payload: { endpoint: 'add', body }, schema: addCustomerBody };
  }
  const trial =
    merchant && s.trialShow && v.trialMoney.trim() ? { trial_money: v.trialMoney.trim() } : {};
  const body = { ...account, ...created, ...(v.agentId ? agent : {}), ...trial };
  return { payload: { endpoint: 'addByService', body }, schema: addByServiceBody };
}

/**
 * The customer form's fields: a row's values (or empty, with the settings' default limit), checked
 * with the schema of the call that saves it. `given`: the settings the dialog opened with.
 */
export const customerFields: CustomerDialogForm<CustomerRow, FormPayload, Values, FormSettings> = {
  start: (row, s) => initialValues(row, s?.defaultLimit ?? '-1'),
  check: (values, row, s) => {
    if (!s) return { errors: { _form: 'http.requestError' } };
    const { payload, schema } = payloadOf(values, row, s);
    const parsed = schema.safeParse(payload.body);
    if (parsed.success) return { draft: payload };
    const found = fieldErrors(parsed.error);
    return {
      errors: Object.fromEntries(Object.entries(found).map(([k, m]) => [FIELD_OF[k] ?? k, m])),
    };
  },
};
