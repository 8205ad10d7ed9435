import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import {
  domainAddBody,
  domainEditBody,
  type Domain,
  type DomainAddBody,
  type DomainEditBody,
} from '../api/contract/domains';

/**
 * The domain form of /domain/domainList (docs/domain.md §12): its draft lives here, not in the
 * view, so the live brand preview and the form read one value. closed → OPEN {target} (null: a
 * new domain) → editing: CHANGE {field, value} edits the draft (once a SUBMIT was refused, every
 * change checks again); SUBMIT checks the draft with the contract's own schemas (what the server
 * would refuse stays here with the messages) → submitting (the `submit` call) → done, counted in
 * `completed` (the area reloads the list) | failed: the server's sentence, RETRY (same payload)
 * or BACK to the draft. CLOSE from editing or failed. An edit sends only the changed fields.
 */

/** The draft: every field as the form holds it (strings; flags '0' / '1'; owner '' = platform). */
export interface DomainValues {
  hostname: string;
  owner_id: string;
  name: string;
  logo: string;
  favicon: string;
  copyright: string;
  icp_record_number: string;
  police_record: string;
  police_record_number: string;
  money_name: string;
  theme_color: string;
  dy_auth_publish_show: string;
  expirence_money_show: string;
  saler_show: string;
  status: string;
}
export type DomainField = keyof DomainValues;

const TEXT_FIELDS = [
  'hostname',
  'name',
  'logo',
  'favicon',
  'copyright',
  'icp_record_number',
  'police_record_number',
  'money_name',
  'theme_color',
] as const;
const FLAG_FIELDS = [
  'police_record',
  'dy_auth_publish_show',
  'expirence_money_show',
  'saler_show',
  'status',
] as const;

export function initialDomainValues(row: Domain | null): DomainValues {
  if (!row) {
    return {
      hostname: '',
      owner_id: '',
      name: '',
      logo: '',
      favicon: '',
      copyright: '',
      icp_record_number: '',
      police_record: '0',
      police_record_number: '',
      money_name: '',
      theme_color: '',
      dy_auth_publish_show: '1',
      expirence_money_show: '1',
      saler_show: '1',
      status: '1',
    };
  }
  const values = { owner_id: row.owner_id === null ? '' : String(row.owner_id) } as DomainValues;
  for (const f of TEXT_FIELDS) values[f] = row[f];
  for (const f of FLAG_FIELDS) values[f] = String(row[f]);
  return values;
}

export type DomainPayload =
  { kind: 'add'; body: DomainAddBody } | { kind: 'edit'; body: DomainEditBody };

const flag = (v: string) => (v === '1' ? 1 : 0);
const owner = (v: string) => (v === '' ? null : Number(v));

/** What the draft sends: every field for a new domain, the changed ones for an edit. */
export function domainPayload(v: DomainValues, row: Domain | null): DomainPayload {
  if (!row) {
    const body: DomainAddBody = { hostname: v.hostname, name: v.name, owner_id: owner(v.owner_id) };
    for (const f of TEXT_FIELDS) if (f !== 'hostname' && f !== 'name') body[f] = v[f];
    for (const f of FLAG_FIELDS) body[f] = flag(v[f]);
    return { kind: 'add', body };
  }
  const body: DomainEditBody = { id: row.id };
  const was = initialDomainValues(row);
  if (v.owner_id !== was.owner_id) body.owner_id = owner(v.owner_id);
  for (const f of TEXT_FIELDS) if (v[f].trim() !== was[f]) body[f] = v[f];
  for (const f of FLAG_FIELDS) if (v[f] !== was[f]) body[f] = flag(v[f]);
  return { kind: 'edit', body };
}

/** The payload's problems by field (message ids; '_form': "nothing to change"). */
export function domainErrors(payload: DomainPayload): Record<string, string> {
  const parsed =
    payload.kind === 'add'
      ? domainAddBody.safeParse(payload.body)
      : domainEditBody.safeParse(payload.body);
  if (parsed.success) return {};
  // The first message of each top-level field ('_form' for the payload as a whole).
  const out: Record<string, string> = {};
  for (const issue of parsed.error.issues) out[String(issue.path[0] ?? '_form')] ??= issue.message;
  return out;
}

export type DomainFormEvent =
  | { type: 'OPEN'; target: Domain | null }
  | { type: 'CHANGE'; field: DomainField; value: string }
  | { type: 'SUBMIT' }
  | { type: 'RETRY' }
  | { type: 'BACK' }
  | { type: 'CLOSE' };

export interface DomainFormContext {
  target: Domain | null;
  values: DomainValues;
  /** The draft's problems by field, shown after the first refused SUBMIT. */
  errors: Record<string, string>;
  checked: boolean;
  payload: DomainPayload | null;
  /** The server's sentence (or a message id) of a failed call. */
  error: string | null;
  completed: number;
}

const errorText = (error: unknown): string => {
  const msg = (error as { msg?: unknown } | null)?.msg;
  if (typeof msg === 'string' && msg) return msg;
  return error instanceof Error && error.message ? error.message : 'http.requestError';
};

export const domainFormMachine = setup({
  types: {
    context: {} as DomainFormContext,
    events: {} as DomainFormEvent,
  },
  actors: {
    submit: fromPromise<Domain, DomainPayload>(async () => {
      throw new Error('domainForm: provide the submit actor');
    }),
  },
  guards: {
    draftValid: ({ context }) =>
      Object.keys(domainErrors(domainPayload(context.values, context.target))).length === 0,
  },
  actions: {
    open: assign(({ event }) => {
      assertEvent(event, 'OPEN');
      return {
        target: event.target,
        values: initialDomainValues(event.target),
        errors: {},
        checked: false,
        payload: null,
        error: null,
      };
    }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE');
      const values = { ...context.values, [event.field]: event.value };
      const errors = context.checked ? domainErrors(domainPayload(values, context.target)) : {};
      return { values, errors };
    }),
    refuse: assign(({ context }) => ({
      checked: true,
      errors: domainErrors(domainPayload(context.values, context.target)),
    })),
    keepPayload: assign(({ context }) => ({
      payload: domainPayload(context.values, context.target),
      errors: {},
      error: null,
    })),
  },
}).createMachine({
  id: 'domainForm',
  context: {
    target: null,
    values: initialDomainValues(null),
    errors: {},
    checked: false,
    payload: null,
    error: null,
    completed: 0,
  },
  initial: 'closed',
  states: {
    closed: { on: { OPEN: { target: 'editing', actions: 'open' } } },
    editing: {
      tags: ['open'],
      on: {
        CHANGE: { actions: 'change' },
        SUBMIT: [
          { guard: 'draftValid', target: 'submitting', actions: 'keepPayload' },
          { actions: 'refuse' },
        ],
        CLOSE: 'closed',
      },
    },
    submitting: {
      tags: ['open', 'submitting'],
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => context.payload!,
        onDone: {
          target: 'done',
          actions: assign({ completed: ({ context }) => context.completed + 1 }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error) }),
        },
      },
    },
    failed: {
      tags: ['open'],
      on: { RETRY: 'submitting', BACK: 'editing', CLOSE: 'closed' },
    },
    done: { on: { OPEN: { target: 'editing', actions: 'open' } } },
  },
});

export type DomainFormSnapshot = SnapshotFrom<typeof domainFormMachine>;
