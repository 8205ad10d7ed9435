/**
 * Writes docs/machines.md: Mermaid stateDiagram-v2 statecharts of every machine in src/machines,
 * generated from their definitions (states, on, always, after, invoke done/error), plus a table
 * of each state's tags, invoked actors and entry actions. Never edit the output.
 *
 *   npm run docs:machines            write it
 *   npm run docs:machines -- --check fail (exit 1) when it is stale or a machine file is missing
 *                                    from MACHINES below (npm test runs this)
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { authMachine } from '../src/machines/auth';
import { brandingMachine } from '../src/machines/branding';
import { generateCardsMachine } from '../src/machines/cards/generate';
import { exchangeMachine } from '../src/machines/exchange';
import { platformSettingsMachine } from '../src/machines/platform-settings';
import { formSubmitMachine } from '../src/machines/form-submit';
import { initConfigGroupMachine } from '../src/machines/init-config-group';
import { createLoadMachine } from '../src/machines/load';
import { smsCodeMachine } from '../src/machines/sms-code';
import { transferMachine } from '../src/machines/transfer';
import { exportMachine } from '../src/machines/cards/export';
import { redeemMachine } from '../src/machines/cards/redeem';
import { uploadMachine } from '../src/machines/upload';
import { taskDetailMachine } from '../src/machines/video-tasks/task-detail';
import { taskPreviewMachine } from '../src/machines/video-tasks/task-preview';
import { taskWatchMachine } from '../src/machines/video-tasks/task-watch';
import { cardTransferMachine } from '../src/machines/cards/transfer';
import { createCustomerDialogMachine } from '../src/machines/customers/customer-dialog';
import { createDraftDialogMachine } from '../src/machines/draft-dialog';
import { aiToolAddBody } from '../src/api/contract/ai-tools';
import { guardMachine } from '../src/machines/guard';
import { createListMachine } from '../src/machines/list';
import { createMoneyCallMachine } from '../src/machines/money-call';
import { menuMachine } from '../src/machines/menu';
import { packageSortMachine } from '../src/machines/package-sort';
import { domainFormMachine } from '../src/machines/domain-form';
import { imageUploadMachine } from '../src/machines/image-upload';
import { buyMachine } from '../src/machines/recharge/buy';
import { resourceLibraryMachine } from '../src/machines/resource-library';
import { matrixAccountsMachine } from '../src/machines/matrix-accounts';
import { matrixPlansMachine } from '../src/machines/matrix-plans';
import { createPlanFormMachine } from '../src/machines/plan-form';
import { matrixBatchLinksMachine } from '../src/machines/matrix-batch-links';
import { matrixVideoDataMachine } from '../src/machines/matrix-video-data';
import { dashboardSeriesMachine } from '../src/machines/dashboard-series';
import { batchAuthorizationMachine } from '../src/machines/batch-authorization';
import { settingsMachine } from '../src/machines/settings';
import { tabsMachine } from '../src/machines/tabs';
import { createTaskFormMachine } from '../src/machines/task-form';
import { createMixedTaskFormMachine } from '../src/machines/mixed-task-form';
import { taskPresetsMachine } from '../src/machines/task-presets';
import { taskBatchMachine } from '../src/machines/task-batch';
import { createClipEditorMachine } from '../src/machines/clip-editor';
import { resourcePickerMachine } from '../src/machines/resource-picker';
import { createDhVideoFormMachine } from '../src/machines/digital-human/video-form';
import { dhVideoWatchMachine } from '../src/machines/digital-human/videos';
import { createCloneFormMachine } from '../src/machines/digital-human/clone-form';
import { cloneWatchMachine } from '../src/machines/digital-human/clone-watch';
import { voicePreviewMachine } from '../src/machines/digital-human/voice-preview';
import { notificationsMachine } from '../src/machines/notifications';
import { voiceSampleMachine } from '../src/machines/digital-human/voice-sample';

interface TransitionLike {
  eventType: string;
  target?: readonly AnyStateNode[];
  guard?: unknown;
  actions: readonly unknown[];
}

interface MachineDoc {
  machine: AnyStateMachine;
  file: string;
  about: string;
  /** An instance of a generic machine documented above (its id): no second diagram. */
  instanceOf?: string;
}

const MACHINES: MachineDoc[] = [
  {
    machine: authMachine,
    file: 'src/machines/auth.ts',
    about:
      'The session of a tab: restore, login, overstep, user info, server logout codes, HTTP 401, logout.',
  },
  {
    machine: guardMachine,
    file: 'src/machines/guard.ts',
    about: 'One actor per navigation; its output is the decision (allow or redirect).',
  },
  {
    machine: menuMachine,
    file: 'src/machines/menu.ts',
    about: 'The server menu with its loading, success and error notices.',
  },
  {
    machine: settingsMachine,
    file: 'src/machines/settings.ts',
    about:
      'The layout settings and the settings drawer; every change persists, theme, colour weak and server menu changes run their page effects.',
  },
  {
    machine: tabsMachine,
    file: 'src/machines/tabs.ts',
    about:
      'The tab bar: tabs keyed by full path, the cache list of pages kept alive, close/close others/close right/reload, kept across a browser reload.',
  },
  {
    machine: createListMachine('list'),
    file: 'src/machines/list.ts',
    about:
      'A server-paginated list: filters and page make the query, the latest query wins, a failed load keeps the last page.',
  },
  {
    machine: createMoneyCallMachine('moneyCall', { empty: {}, check: () => ({ errors: {} }) }),
    file: 'src/machines/money-call.ts',
    about:
      'A money dialog (transfer, exchange, generate cards): edit, confirm, submit with one idempotency key, retry with the same key.',
  },
  {
    machine: exchangeMachine,
    file: 'src/machines/exchange.ts',
    about:
      'The exchange dialog: money → digital-human minutes, voice or image clones; pick the target and quantity, confirm, submit.',
    instanceOf: 'moneyCall',
  },
  {
    machine: transferMachine,
    file: 'src/machines/transfer.ts',
    about:
      'The transfer dialog: pick a user, an asset, give or take back, an amount; confirm, submit.',
    instanceOf: 'moneyCall',
  },
  {
    machine: generateCardsMachine,
    file: 'src/machines/cards/generate.ts',
    about:
      'The "generate cards" dialog: the form, a confirmation (for a partner: the total it pays), submit, the batch number.',
    instanceOf: 'moneyCall',
  },
  {
    machine: cardTransferMachine,
    file: 'src/machines/cards/transfer.ts',
    about: 'Transfer cards (a selection or a batch) to a user: pick, confirm, submit.',
  },
  {
    machine: redeemMachine,
    file: 'src/machines/cards/redeem.ts',
    about: 'Redeem a card by its number and password; the server’s refusal is shown as it is.',
  },
  {
    machine: exportMachine,
    file: 'src/machines/cards/export.ts',
    about:
      'Export a list as CSV (the cards; the audit log: createExportMachine) through a single-use download ticket (no token in the URL).',
  },
  {
    machine: createCustomerDialogMachine('customerDialog'),
    file: 'src/machines/customers/customer-dialog.ts',
    about:
      'A customer dialog (create, edit, reset password, permissions, delete): edit, submit, done or the server’s refusal with retry.',
  },
  {
    machine: createDraftDialogMachine('draftDialog', {
      empty: {},
      schema: () => aiToolAddBody,
      toBody: (draft) => draft,
    }),
    file: 'src/machines/draft-dialog.ts',
    about:
      'An add / edit dialog owning its draft (AI tools, industries, scripts): set fields, checked against the contract’s schema on submit, then the call; the server’s refusal keeps the draft.',
  },
  {
    machine: packageSortMachine,
    file: 'src/machines/package-sort.ts',
    about:
      'Move a recharge package up or down: read the whole order afresh, save it with the package swapped with its neighbour.',
  },
  {
    machine: domainFormMachine,
    file: 'src/machines/domain-form.ts',
    about:
      'The domain form: its draft (the brand preview reads it), checked with the contract on submit and on every change once refused, then the add or edit call, the server’s refusal with retry or back.',
  },
  {
    machine: imageUploadMachine,
    file: 'src/machines/image-upload.ts',
    about:
      'One platform image field’s upload (a domain’s logo or favicon, an article’s cover, the editor’s inserted images): a file the purpose does not take is refused at once, another is sent; the uploaded image is emitted to the form or editor that holds the address; closing or reopening the form stops an upload under way.',
  },
  {
    machine: buyMachine,
    file: 'src/machines/recharge/buy.ts',
    about:
      'Buy a recharge package: load the packages on sale, choose, confirm, create the order (retried only when asked), then check it every few seconds while the buyer pays in another tab, until paid or expired.',
  },
  {
    machine: brandingMachine,
    file: 'src/machines/branding.ts',
    about:
      'White-label branding of the current host: fetched once the first page is painted, for the page title and tab icon.',
  },
  {
    machine: createLoadMachine('load'),
    file: 'src/machines/load.ts',
    about: 'Loads one piece of data for a view: loading, ready or failed, RELOAD to fetch again.',
  },
  {
    machine: dashboardSeriesMachine,
    file: 'src/machines/dashboard-series.ts',
    about:
      'The dashboards’ charts: the series of the last 7 or 30 days (a range change loads again, the last answer shown meanwhile), RELOAD when something they count changed, a retry after a failure.',
  },
  {
    machine: formSubmitMachine,
    file: 'src/machines/form-submit.ts',
    about: 'One form’s submission: editing, submitting, done, or back to editing with the error.',
  },
  {
    machine: smsCodeMachine,
    file: 'src/machines/sms-code.ts',
    about: 'Sending an SMS code: idle, sending, a 60 s cooldown, idle again.',
  },
  {
    machine: resourceLibraryMachine,
    file: 'src/machines/resource-library.ts',
    about:
      'The resource library page: the selection for a multi-select delete (kept to what the list shows) and the preview of one resource (player, image, or facts).',
  },
  {
    machine: matrixAccountsMachine,
    file: 'src/machines/matrix-accounts.ts',
    about:
      'The authorised accounts page: the selection for a bulk delete or move, binding an account (the dialog, the platform’s address, the browser sent there), refresh now, and the page’s notice (a refresh’s outcome, the platform’s return).',
  },
  {
    machine: matrixPlansMachine,
    file: 'src/machines/matrix-plans.ts',
    about:
      'The release plans page: pause, resume or cancel a plan (cancel asks first), a plan’s posts (the detail), publish a post now or retry it, and the page’s notice (each outcome).',
  },
  {
    machine: createPlanFormMachine({
      fresh: () => ({
        name: '',
        accountIds: [],
        media: [],
        titles: [],
        topics: [],
        location: '',
        startDate: '',
        endDate: '',
        slots: [],
        dailyMax: '',
        timezone: 'Asia/Shanghai',
      }),
      check: () => ({ body: null, errors: {} }),
      checkImitate: () => null,
      maxTitles: 100,
    }),
    file: 'src/machines/plan-form.ts',
    about:
      'The release plan’s create form: the contract’s check, the preview of the schedule, the save (the preview of the draft as it is first), and AI titles to add.',
  },
  {
    machine: matrixVideoDataMachine,
    file: 'src/machines/matrix-video-data.ts',
    about:
      'The video data page: the published posts’ numbers over the last 7, 30 or 90 days, for an account and a plan or all (each change loads again), a retry after a refusal, and the rows exported as a CSV file.',
  },
  {
    machine: matrixBatchLinksMachine,
    file: 'src/machines/matrix-batch-links.ts',
    about:
      'The batch authorisation panel of the accounts page: make a link (refused: the form says why), revoke one after a confirmation, and a link’s QR code (drawn, shown, downloaded as a PNG).',
  },
  {
    machine: batchAuthorizationMachine,
    file: 'src/machines/batch-authorization.ts',
    about:
      'The public page of a batch authorisation link: whose link and its state, authorise (the platform’s address, the browser sent there), and what the platform’s return says (bound, or the console’s text of the refusal).',
  },
  {
    machine: uploadMachine,
    file: 'src/machines/upload.ts',
    about:
      'One file’s upload: waiting for a slot, grant, transfer (pause / resume), the server’s check (resource/add); failed (retry) or refused; interrupted by a reload until the file is chosen again.',
  },
  // Video tasks: the task pages' drawer and the area's progress watch.
  {
    machine: taskDetailMachine,
    file: 'src/machines/video-tasks/task-detail.ts',
    about:
      'The open video task (the drawer): load, the watch’s newer copies while ready, reload after a retry or a cancel.',
  },
  {
    machine: taskWatchMachine,
    file: 'src/machines/video-tasks/task-watch.ts',
    about:
      'The video tasks area’s progress watch: a check every 2 s while a task on show runs, longer waits after failures, idle when nothing runs.',
  },
  {
    machine: taskPreviewMachine,
    file: 'src/machines/video-tasks/task-preview.ts',
    about:
      'A task form’s preview before paying: the form’s body asked for, followed every 0.5 s while queued or rendering (longer waits after failed checks), then played, failed with its reason, refused, or throttled (too many in a minute); cleared with its form.',
  },
  // Video task create forms. The contract's check is the area's; here a stand-in.
  {
    machine: createTaskFormMachine('taskForm', {
      fresh: () => ({}),
      check: () => ({ body: null, errors: {}, estimate: null }),
      page: false,
    }),
    file: 'src/machines/task-form.ts',
    about:
      'A video task create form: the draft, the live estimate (a change of what prices it waits 400 ms, then asks; a newer change aborts the call) and the submission (the contract’s messages, or the server’s refusal).',
  },
  {
    machine: createMixedTaskFormMachine(() => ({ body: null, errors: {}, estimate: null })),
    file: 'src/machines/mixed-task-form.ts',
    about: 'The mixed-cut create drawer: closed until opened, closed again once the task is added.',
    instanceOf: 'taskForm',
  },
  {
    machine: createClipEditorMachine(() => ({ body: null, errors: {}, estimate: null })),
    file: 'src/machines/clip-editor.ts',
    about: 'The clip editor page: open from the start, a fresh draft once the task is added.',
    instanceOf: 'taskForm',
  },
  {
    machine: taskPresetsMachine,
    file: 'src/machines/task-presets.ts',
    about:
      'A create form’s presets and duplicates: listed when the form opens, saved under a name, applied, deleted after a confirmation; a duplicated task’s body loaded into the form.',
  },
  {
    machine: taskBatchMachine,
    file: 'src/machines/task-batch.ts',
    about:
      'The mixed-cut form’s batch from a CSV file: a file chosen, checked whole by the server, its errors listed by row and column or its estimate shown, confirmed into one batch (one hold), the tasks made counted.',
  },
  {
    machine: resourcePickerMachine,
    file: 'src/machines/resource-picker.ts',
    about:
      'The resource picker of the create forms: one or several of the library ticked, confirmed into the form that opened it.',
  },
  // Digital-human videos.
  {
    machine: createDhVideoFormMachine({
      check: () => ({ body: null, errors: {}, estimate: null }),
      fresh: () => ({
        name: '',
        text: '',
        avatar: null,
        voice: null,
        speed: 1,
        volume: 1,
        subtitles: true,
        music: null,
        folderId: null,
        templateId: null,
      }),
      newKey: () => 'key',
    }),
    file: 'src/machines/digital-human/video-form.ts',
    about:
      'The digital-human video form page: open from the start, the estimate of seconds and cost, the submission with an idempotency key kept while the draft is unchanged, a fresh draft once the video is added.',
    instanceOf: 'taskForm',
  },
  {
    machine: dhVideoWatchMachine,
    file: 'src/machines/digital-human/videos.ts',
    about:
      'The digital-human videos’ live queue position and progress (and their detail, an instance of taskDetail): a check every 2 s while a video on show is queued or creating.',
    instanceOf: 'taskWatch',
  },
  // Digital-human clones.
  {
    machine: createCloneFormMachine('cloneForm', {
      fresh: () => ({}),
      check: () => ({ body: null, errors: {} }),
    }),
    file: 'src/machines/digital-human/clone-form.ts',
    about:
      'A clone’s create dialog (image, voice): the draft checked by the contract’s rules, the submission, the server’s refusal kept in the dialog.',
  },
  {
    machine: cloneWatchMachine,
    file: 'src/machines/digital-human/clone-watch.ts',
    about:
      'The clones area’s training watch: a check every 2 s while a clone on show is queued or training, longer waits after failures, idle when none is.',
  },
  {
    machine: voicePreviewMachine,
    file: 'src/machines/digital-human/voice-preview.ts',
    about:
      'The voice preview: a text of at most 100 characters spoken by a ready voice, the sample played, the server’s refusal.',
  },
  {
    machine: voiceSampleMachine,
    file: 'src/machines/digital-human/voice-sample.ts',
    about:
      'The voice preview of the digital-human video form: a voice saying the start of the text; a newer request replaces one under way.',
  },
  {
    machine: notificationsMachine,
    file: 'src/machines/notifications.ts',
    about:
      'The notifications bell: the unread count asked at once and every 30 s while the page is shown, paused while hidden, longer waits after failures; marking one or all read.',
  },
  {
    machine: initConfigGroupMachine,
    file: 'src/machines/init-config-group.ts',
    about:
      'One group of the system init settings: load, the draft checked by the contract before saving (a secret left empty is unchanged), a write-only field cleared after a confirmation, a WeChat Pay file uploaded, and the connection test with its answer.',
  },
  {
    machine: platformSettingsMachine,
    file: 'src/machines/platform-settings.ts',
    about:
      "The settings and prices page: load the caller's settings (admin: the platform's; partner: its price overrides), edit a draft checked with the contract's ranges, save only the changed keys.",
  },
];

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states).flatMap((child) => [child, ...allNodes(child)]);
}

/** Mermaid ids: the state key when unique in the machine, else its path joined with '_'. */
function idMaker(machine: AnyStateMachine) {
  const counts = new Map<string, number>();
  for (const node of allNodes(machine.root)) counts.set(node.key, (counts.get(node.key) ?? 0) + 1);
  return (node: AnyStateNode) => (counts.get(node.key) === 1 ? node.key : node.path.join('_'));
}

function guardName(guard: unknown): string | null {
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard && 'type' in guard) return String(guard.type);
  const parts = (guard as { guards?: unknown[] }).guards;
  if (Array.isArray(parts)) return parts.map((g) => guardName(g)).join(' and ');
  return 'guard';
}

/** Named actions only (built-ins such as assign are implementation detail). */
function actionNames(actions: readonly unknown[]): string[] {
  return actions
    .map((action) => {
      if (typeof action === 'string') return action;
      if (action && typeof action === 'object' && 'type' in action) return String(action.type);
      return null;
    })
    .filter((name): name is string => name !== null && !name.startsWith('xstate.'));
}

function eventLabel(eventType: string): string {
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (done) return `${done[1]} ${done[2]}`;
  const after = /^xstate\.after\.(\d+)\./.exec(eventType);
  if (after) return `after ${after[1]} ms`;
  if (eventType === '') return 'always';
  return eventType;
}

function label(t: TransitionLike, always = false): string {
  const guard = guardName(t.guard);
  const actions = actionNames(t.actions);
  let text = always ? 'always' : eventLabel(t.eventType);
  if (guard) text += ` [${guard}]`;
  if (actions.length) text += ` / ${actions.join(', ')}`;
  // Mermaid reads ';' and '#' specially in labels.
  return text.replace(/[;#]/g, ' ');
}

function transitionsOf(node: AnyStateNode): { t: TransitionLike; always: boolean }[] {
  const list: { t: TransitionLike; always: boolean }[] = [];
  for (const group of node.transitions.values())
    for (const t of group as TransitionLike[]) list.push({ t, always: false });
  for (const t of (node.always ?? []) as TransitionLike[]) list.push({ t, always: true });
  return list;
}

function diagram(machine: AnyStateMachine): string {
  const id = idMaker(machine);
  const lines = ['stateDiagram-v2'];

  // Structure: initial states, compound states as blocks, final states.
  const walk = (node: AnyStateNode, indent: string) => {
    const initial = node.initial?.target?.[0];
    if (initial) lines.push(`${indent}[*] --> ${id(initial)}`);
    for (const child of Object.values(node.states)) {
      if (Object.keys(child.states).length) {
        lines.push(`${indent}state ${id(child)} {`);
        walk(child, `${indent}  `);
        lines.push(`${indent}}`);
      } else if (child.type === 'final') {
        lines.push(`${indent}${id(child)} --> [*]`);
      } else {
        // Declared here so that Mermaid draws it inside its parent.
        lines.push(`${indent}${id(child)}`);
      }
    }
  };
  walk(machine.root, '  ');

  // Every transition of every state (targetless ones as self-loops).
  for (const node of allNodes(machine.root)) {
    for (const { t, always } of transitionsOf(node)) {
      const targets = t.target?.length ? t.target : [node];
      for (const target of targets)
        lines.push(`  ${id(node)} --> ${id(target)}: ${label(t, always)}`);
    }
  }
  // Transitions declared on the root apply in every state.
  for (const { t } of transitionsOf(machine.root)) {
    for (const target of t.target ?? [])
      lines.push(`  note right of ${id(target)}: from any state, ${label(t)}`);
  }
  return lines.join('\n');
}

function walkAll(machine: AnyStateMachine): AnyStateNode[] {
  return allNodes(machine.root);
}

function table(machine: AnyStateMachine): string {
  const rows = ['| state | tags | invokes (id: actor) | entry actions |', '|---|---|---|---|'];
  for (const node of walkAll(machine)) {
    const tags = [...(node.tags ?? [])].join(', ');
    const invokes = (node.invoke ?? []).map(
      (i: { id: string; src: unknown }) =>
        `${i.id}: ${typeof i.src === 'string' ? i.src : 'inline'}`,
    );
    const entry = actionNames(node.entry ?? []);
    const name = node.path.join('.') + (node.type === 'final' ? ' (final)' : '');
    rows.push(`| ${name} | ${tags} | ${invokes.join(', ')} | ${entry.join(', ')} |`);
  }
  return rows.join('\n');
}

/** What happens in every state without leaving it: root entry actions and targetless root transitions. */
function rootTable(machine: AnyStateMachine): string {
  const rows: string[] = [];
  const entry = actionNames(machine.root.entry ?? []);
  if (entry.length) rows.push(`| on start | ${entry.join(', ')} |`);
  for (const { t, always } of transitionsOf(machine.root)) {
    if (t.target?.length) continue;
    const guard = guardName(t.guard);
    const event = always ? 'always' : eventLabel(t.eventType);
    rows.push(`| ${event}${guard ? ` [${guard}]` : ''} | ${actionNames(t.actions).join(', ')} |`);
  }
  if (!rows.length) return '';
  return [
    'In every state (no state change):',
    '',
    '| event [guard] | actions |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
}

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const out = resolve(root, 'docs/machines.md');

function section({ machine, file, about, instanceOf }: MachineDoc): string {
  if (instanceOf) {
    return [
      `## ${machine.id}`,
      '',
      `${about} Source: \`${file}\`. The statechart of \`${instanceOf}\` above, with this draft and reply.`,
      '',
    ].join('\n');
  }
  return [
    `## ${machine.id}`,
    '',
    `${about} Source: \`${file}\`.`,
    '',
    '```mermaid',
    diagram(machine),
    '```',
    '',
    table(machine),
    '',
    ...(rootTable(machine) ? [rootTable(machine)] : []),
  ].join('\n');
}

/** Every module under src/machines (a machine each): the ones MACHINES does not document. */
function undocumentedMachineFiles(): string[] {
  const listed = new Set(MACHINES.map((m) => m.file));
  return readdirSync(resolve(root, 'src/machines'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) =>
      relative(root, resolve(root, 'src/machines', name))
        .split('\\')
        .join('/'),
    )
    .filter((file) => !listed.has(file));
}

const text = [
  '# State machines',
  '',
  '<!-- Generated by `npm run docs:machines` (scripts/docs-machines.ts) from the machine',
  'definitions. Do not edit by hand. -->',
  '',
  'Labels read `event [guard] / named actions`; `done x` / `error x` are the outcomes of the',
  'invoked actor with id `x`; `after N ms` is a delayed transition; `always` an eventless one.',
  '',
  ...MACHINES.map(section),
].join('\n');

const missing = undocumentedMachineFiles();
if (missing.length) {
  console.error(
    `docs:machines: add these machines to MACHINES in scripts/docs-machines.ts: ${missing.join(', ')}`,
  );
  process.exit(1);
}
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(out, 'utf8');
  } catch {
    /* missing: stale */
  }
  if (current !== text) {
    console.error('docs/machines.md is stale: run `npm run docs:machines` and commit it.');
    process.exit(1);
  }
  console.log('docs/machines.md is up to date.');
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
