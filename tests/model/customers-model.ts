/**
 * The customer dialog machine's test model (create / edit form, reset password, enable /
 * disable, transfer permissions, delete), shared by the logic path tests
 * (customers-dialog.test.ts) and the view path tests (customers-view.test.tsx): the events, the
 * serialisation and, written out again here as the oracle, what a person sees in each state.
 */
import type { CustomerRow } from '../../src/api/contract/customers';
import {
  createCustomerDialogMachine,
  type CustomerDialogEvent,
  type CustomerDialogSnapshot,
} from '../../src/machines/customers/customer-dialog';

export const ROW: CustomerRow = {
  id: 7,
  username: 'shop7',
  name: 'Morning shop',
  nickname: '',
  mobile: '',
  email: '',
  user_type: 2,
  pid: 2,
  parent_name: 'Nebula',
  service_id: 2,
  service_name: 'Nebula',
  agent_id: null,
  agent_name: '',
  status: 1,
  money: '0.00',
  digital_man_seconds: 0,
  voice_clone_count: 0,
  image_clone_count: 0,
  merchant_count: 0,
  merchant_count_limit: -1,
  child_count: 0,
  service_prefix_no: '',
  service_type: 0,
  can_transfer_money: 0,
  can_transfer_digital_man: 0,
  can_transfer_digital_voice: 0,
  show_clip_menu: 1,
  open_oem: 0,
  digital_man_money_exchange_num: '',
  digital_voice_money_exchange_num: '',
  mini_appid: '',
  expire_at: null,
  remark: '',
  created_at: 0,
  last_login_at: null,
};

/** The server's refusal (a human sentence, shown as it is). */
export const REFUSAL = Object.assign(new Error('Merchant limit reached (3)'), {
  kind: 'reply',
  msg: 'Merchant limit reached (3)',
});

export type Payload = { value: string };
export type Event = CustomerDialogEvent<CustomerRow, Payload>;
export type Snap = CustomerDialogSnapshot<CustomerRow, Payload>;

export const dialogMachine = createCustomerDialogMachine<CustomerRow, Payload>('customerDialog');

/** Every event a person or the call can cause (targets: a row, or null for "new"). */
export const EVENTS: Event[] = [
  { type: 'OPEN', target: ROW },
  { type: 'OPEN', target: null },
  { type: 'SUBMIT', payload: { value: 'draft' } },
  { type: 'RETRY' },
  { type: 'BACK' },
  { type: 'CLOSE' },
  { type: 'xstate.done.actor.submit', output: ROW } as unknown as Event,
  { type: 'xstate.error.actor.submit', error: REFUSAL } as unknown as Event,
];

/** State, whether a row is targeted, and whether an error is kept: nothing else matters. */
export function serialize(snapshot: Snap): string {
  const c = snapshot.context;
  return JSON.stringify([snapshot.value, c.target ? c.target.id : null, Boolean(c.error)]);
}

export function describeEvent(event: Event): string {
  if (event.type === 'OPEN') return event.target ? 'open(row)' : 'open(new)';
  return event.type.replace(/^xstate\./, '');
}

export interface DialogSees {
  /** The modal dialog is shown. */
  open: boolean;
  /** The submit button shows progress (busy); Cancel is disabled. */
  busy: boolean;
  /** The server's sentence in an alert, with Retry and Back to the form instead of submit. */
  refusal: string | null;
}

/** The oracle: spec of the dialog, independent of the machine's code. */
export function sees(snapshot: Snap): DialogSees {
  const state = String(snapshot.value);
  return {
    open: state === 'editing' || state === 'submitting' || state === 'failed',
    busy: state === 'submitting',
    refusal: state === 'failed' ? REFUSAL.msg : null,
  };
}
