#!/usr/bin/env node
/**
 * Proof: do the path tests catch a broken flow? Applies one mutation at a time to
 * a copy of the repository and runs the Vitest files that cover the machine:
 *   (a) a transition's target changed to another valid state of the same machine (a sibling of
 *       the original target, so the machine still builds);
 *   (b) the event a button or effect sends changed to another event the machine accepts (or, for a
 *       machine with one event, to an event it ignores: the send is dropped).
 * Reports tried / caught for each kind and lists the survivors.
 *
 * A mutated run that takes longer than its hang limit (`--hang-factor` × the unmutated run's own
 * duration, default 3, at least 120 s) is stopped (its whole process group) and counted as
 * "caught (hang)", listed apart from "caught (assertion)" (a failing test): a mutation that makes
 * a machine loop forever.
 *
 * An entry: `machine`, the machine file it stands for (every file in src/machines has an entry);
 * `targets`, the file whose transition targets are mutated (default `machine`; a machine made by a
 * generic one names the generic file); `events`, the file that names the machine's events
 * (default `targets`; a list: a machine made by several generic ones); `senders`, the files whose sends are mutated, each a path (every
 * `send(…)` in it) or `{ file, to: ['actor', …] }` (only `actor.send(…)`: a file that sends to
 * several actors); `eventCalls` (optional), helper functions whose first argument is an event
 * type; `tests`, the Vitest files run; `only` (optional), just the tests whose names match it
 * (`vitest -t`).
 *
 *   node scripts/mutate-machines.mjs --machine auth[,tabs…] [--sample 6] [--kind targets|sends]
 *     [--list] [--at buy.ts:257,recharge-dialog.tsx:153] [--hang-factor 3]
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MACHINES = {
  auth: {
    machine: 'src/machines/auth.ts',
    senders: [
      'src/app/shell/session-dialogs.tsx',
      'src/views/login/login-page.tsx',
      'src/app/shell/commands.ts',
      'src/app/actors/account.ts',
    ],
    tests: [
      'tests/model/auth-view-signed-out.test.tsx',
      'tests/model/auth-view-local-token.test.tsx',
      'tests/model/auth-view-overstep.test.tsx',
    ],
  },
  'sms-code': {
    machine: 'src/machines/sms-code.ts',
    senders: ['src/views/login/sms-code-button.tsx'],
    tests: ['tests/model/account-view.test.tsx'],
  },
  'form-submit': {
    machine: 'src/machines/form-submit.ts',
    senders: ['src/app/hooks/use-submission.ts'],
    tests: ['tests/model/account-view.test.tsx'],
  },
  settings: {
    machine: 'src/machines/settings.ts',
    senders: [
      'src/app/shell/settings-drawer.tsx',
      'src/app/shell/shell.tsx',
      'src/app/shell/side-menu.tsx',
      'src/app/shell/commands.ts',
    ],
    tests: ['tests/model/settings-view.test.tsx'],
  },
  tabs: {
    machine: 'src/machines/tabs.ts',
    senders: ['src/app/shell/tab-bar.tsx'],
    tests: ['tests/model/tabs-view.test.tsx'],
  },
  'recharge-buy': {
    machine: 'src/machines/recharge/buy.ts',
    senders: ['src/views/account/recharge-dialog.tsx', 'src/app/actors/recharge.ts'],
    // The dialog's buttons go through its `send('X')` and `outline('X', …)` helpers.
    eventCalls: ['send', 'outline'],
    tests: ['tests/model/recharge-buy-view.test.tsx'],
  },
  'package-sort': {
    machine: 'src/machines/package-sort.ts',
    senders: ['src/views/account/recharge-page.tsx'],
    tests: ['tests/model/recharge-package-sort-view.test.tsx'],
  },
  guard: {
    machine: 'src/machines/guard.ts',
    // The guard takes no events of its own: only its waiting actors settle.
    senders: [],
    tests: ['tests/model/guard-view.test.tsx'],
  },
  menu: {
    machine: 'src/machines/menu.ts',
    // The settings drawer's switch and logout (CLEAR), the route guard's load (LOAD).
    senders: ['src/app/actors/app-actors.ts'],
    tests: ['tests/model/menu-view.test.tsx', 'tests/model/guard-view.test.tsx'],
  },
  branding: {
    machine: 'src/machines/branding.ts',
    senders: [],
    tests: ['tests/model/property-paths-view.test.tsx'],
    only: 'the branding',
  },
  load: {
    machine: 'src/machines/load.ts',
    senders: ['src/app/hooks/use-load.ts'],
    // The balances (Retry, an exchange's reload); a page built again (the rebuild's RELOAD).
    tests: ['tests/model/property-paths-view.test.tsx', 'tests/model/home-load-view.test.tsx'],
    only: 'the balances|built again',
  },
  list: {
    machine: 'src/machines/list.ts',
    senders: ['src/app/hooks/use-list.ts'],
    tests: ['tests/model/property-paths-view.test.tsx', 'tests/model/list-rules.test.ts'],
    only: 'the ledger|list',
  },
  // The money dialogs: one generic machine (money-call.ts) run by transfer and exchange, which
  // have no transitions of their own. Its targets and its step buttons (StepButtons) are mutated
  // once, under money-call, against the transfer dialog's path tests; each specific machine's
  // entry mutates only what its own dialog and page send (events named in money-call.ts).
  'money-call': {
    machine: 'src/machines/money-call.ts',
    senders: ['src/views/shared/money-dialog.tsx'],
    // StepButtons' `retryAlways` branch (Back and Retry after a refusal) is the card transfer
    // dialog's only: its tests cover those two buttons.
    tests: ['tests/model/transfer-view.test.tsx', 'tests/model/cards-transfer-view.test.tsx'],
  },
  transfer: {
    machine: 'src/machines/transfer.ts',
    events: 'src/machines/money-call.ts',
    senders: [
      { file: 'src/views/shared/transfer-dialog.tsx', to: ['actor'] },
      { file: 'src/views/account/property-page.tsx', to: ['transferActor'] },
    ],
    tests: ['tests/model/transfer-view.test.tsx'],
  },
  exchange: {
    machine: 'src/machines/exchange.ts',
    events: 'src/machines/money-call.ts',
    senders: [
      { file: 'src/views/account/exchange-dialog.tsx', to: ['actor'] },
      { file: 'src/views/account/property-page.tsx', to: ['exchangeActor'] },
    ],
    tests: ['tests/model/exchange-view.test.tsx'],
  },
  'customer-dialog': {
    machine: 'src/machines/customers/customer-dialog.ts',
    senders: [
      'src/views/promotion/customer-page.tsx',
      'src/views/promotion/customer-form-dialog.tsx',
      'src/views/promotion/customer-row-dialogs.tsx',
    ],
    tests: ['tests/model/customers-view.test.tsx'],
  },
  'cards-export': {
    machine: 'src/machines/cards/export.ts',
    senders: ['src/views/promotion/card-export.tsx'],
    tests: ['tests/model/cards-export-view.test.tsx'],
  },
  // A money call: its states and events are money-call.ts's (generate.ts only names it).
  'cards-generate': {
    machine: 'src/machines/cards/generate.ts',
    targets: 'src/machines/money-call.ts',
    senders: [
      'src/views/promotion/card-generate-dialog.tsx',
      { file: 'src/views/promotion/card-password-page.tsx', to: ['generateActor'] },
    ],
    tests: ['tests/model/cards-generate-view.test.tsx'],
  },
  'cards-redeem': {
    machine: 'src/machines/cards/redeem.ts',
    senders: ['src/views/shared/card-redeem-dialog.tsx'],
    tests: ['tests/model/cards-redeem-view.test.tsx'],
  },
  'cards-transfer': {
    machine: 'src/machines/cards/transfer.ts',
    senders: [
      'src/views/promotion/card-transfer-dialog.tsx',
      { file: 'src/views/promotion/card-password-page.tsx', to: ['transferActor'] },
    ],
    tests: ['tests/model/cards-transfer-view.test.tsx'],
  },
  'resource-library': {
    machine: 'src/machines/resource-library.ts',
    senders: [
      { file: 'src/views/creation/resource-page.tsx', to: ['library'] },
      { file: 'src/views/creation/resource-dialogs.tsx', to: ['library'] },
      { file: 'src/app/actors/resources.ts', to: ["started\\('library'\\)\\?"] },
    ],
    tests: ['tests/model/resource-library-view.test.tsx'],
    only: 'library machine|delete the selection',
  },
  // The queue's START and an interrupted file's FILE_CHOSEN come from the uploads area.
  upload: {
    machine: 'src/machines/upload.ts',
    senders: ['src/views/shared/upload-queue.tsx', 'src/app/actors/uploads.ts'],
    // The queue's buttons go through its `send('X')` helper.
    eventCalls: ['send'],
    tests: ['tests/model/upload-view.test.tsx'],
  },
  // The video-task create forms and the digital-human video form: one
  // generic machine (task-form.ts) made three times. Its targets and the fields' EDIT (shared
  // parts) are mutated once, under task-form; each form's entry mutates what its own page and
  // area send (events named in task-form.ts).
  'task-form': {
    machine: 'src/machines/task-form.ts',
    senders: [{ file: 'src/views/shared/form-parts.tsx', to: ['actor'] }],
    tests: ['tests/model/task-form-view.test.tsx', 'tests/model/clip-editor-view.test.tsx'],
  },
  'mixed-task-form': {
    machine: 'src/machines/mixed-task-form.ts',
    events: 'src/machines/task-form.ts',
    senders: [
      { file: 'src/views/creation/task-form.tsx', to: ['form', 'area\\.mixed'] },
      { file: 'src/app/actors/video-task-forms.ts', to: ['made\\.mixed'] },
    ],
    tests: ['tests/model/task-form-view.test.tsx'],
  },
  'clip-editor': {
    machine: 'src/machines/clip-editor.ts',
    events: 'src/machines/task-form.ts',
    senders: [
      { file: 'src/views/creation/mixedshear-page.tsx', to: ['form'] },
      { file: 'src/app/actors/video-task-forms.ts', to: ['made\\.clip'] },
    ],
    tests: ['tests/model/clip-editor-view.test.tsx'],
  },
  'dh-video-form': {
    machine: 'src/machines/digital-human/video-form.ts',
    events: 'src/machines/task-form.ts',
    senders: [
      { file: 'src/views/digital-human/create-video-page.tsx', to: ['form'] },
      { file: 'src/app/actors/digital-human-videos.ts', to: ['all\\.form'] },
    ],
    tests: ['tests/model/dh-video-form-view.test.tsx'],
  },
  'task-presets': {
    machine: 'src/machines/task-presets.ts',
    senders: [
      { file: 'src/views/creation/task-presets-bar.tsx', to: ['presets'] },
      { file: 'src/views/creation/video-task-list.tsx', to: ['presets'] },
      { file: 'src/app/actors/task-presets.ts', to: ['presets'] },
    ],
    tests: ['tests/model/task-presets-view.test.tsx'],
  },
  'task-batch': {
    machine: 'src/machines/task-batch.ts',
    senders: [{ file: 'src/views/creation/task-batch-dialog.tsx', to: ['batch'] }],
    tests: ['tests/model/task-batch-view.test.tsx'],
  },
  'resource-picker': {
    machine: 'src/machines/resource-picker.ts',
    senders: [
      { file: 'src/views/creation/task-form-parts.tsx', to: ['area\\.picker'] },
      { file: 'src/views/shared/resource-picker-dialog.tsx', to: ['picker'] },
    ],
    // The clip editor's file has the picker's Cancel test.
    tests: ['tests/model/task-form-view.test.tsx', 'tests/model/clip-editor-view.test.tsx'],
  },
  'task-watch': {
    machine: 'src/machines/video-tasks/task-watch.ts',
    senders: [{ file: 'src/app/actors/video-tasks.ts', to: ['watch'] }],
    tests: ['tests/model/video-tasks-view.test.tsx'],
    only: 'progress without reloading',
  },
  'task-preview': {
    machine: 'src/machines/video-tasks/task-preview.ts',
    senders: [
      { file: 'src/views/creation/task-preview.tsx', to: ['actor'] },
      {
        file: 'src/app/actors/video-task-forms.ts',
        to: ["started\\('mixedPreview'\\)\\?", "started\\('clipPreview'\\)\\?"],
      },
    ],
    tests: ['tests/model/task-preview-view.test.tsx'],
  },
  'task-detail': {
    machine: 'src/machines/video-tasks/task-detail.ts',
    senders: [
      { file: 'src/views/creation/video-task-detail.tsx', to: ['detail'] },
      { file: 'src/views/creation/video-task-list.tsx', to: ['detail'] },
      {
        file: 'src/app/actors/video-tasks.ts',
        to: ['started\\(detailKey\\(d\\.kind\\)\\)\\?', 'actors\\[detailKey\\(kind\\)\\]'],
      },
    ],
    tests: ['tests/model/video-tasks-view.test.tsx'],
    only: 'drawer|open detail|taskAdded',
  },
  // The digital-human videos' watch and detail: task-watch and task-detail made again (no
  // transitions of their own); what the videos' pages and area send.
  'dh-videos': {
    machine: 'src/machines/digital-human/videos.ts',
    events: ['src/machines/video-tasks/task-watch.ts', 'src/machines/video-tasks/task-detail.ts'],
    senders: [
      {
        file: 'src/app/actors/digital-human-videos.ts',
        to: ['watch', "started\\('detail'\\)\\?", 'open'],
      },
      { file: 'src/views/digital-human/dh-video-parts.tsx', to: ['detail'] },
      { file: 'src/views/digital-human/digital-video-page.tsx', to: ['area\\.detail'] },
      { file: 'src/views/digital-human/my-creation-page.tsx', to: ['area\\.detail'] },
    ],
    tests: ['tests/model/dh-videos-view.test.tsx'],
  },
  'voice-sample': {
    machine: 'src/machines/digital-human/voice-sample.ts',
    senders: [
      { file: 'src/views/digital-human/create-video-page.tsx', to: ['area\\.preview'] },
      { file: 'src/app/actors/digital-human-videos.ts', to: ["started\\('preview'\\)\\?"] },
    ],
    // The form's STOP once a video is added: its path test adds one.
    tests: ['tests/model/dh-voice-sample-view.test.tsx', 'tests/model/dh-video-form-view.test.tsx'],
  },
  'clone-form': {
    machine: 'src/machines/digital-human/clone-form.ts',
    senders: [
      { file: 'src/views/digital-human/image-clone-page.tsx', to: ['form', 'imageForm'] },
      { file: 'src/views/digital-human/sound-clone-page.tsx', to: ['form', 'voiceForm'] },
      { file: 'src/app/actors/digital-human-clones.ts', to: ['form'] },
    ],
    tests: ['tests/model/clone-dialogs-view.test.tsx'],
  },
  'clone-watch': {
    machine: 'src/machines/digital-human/clone-watch.ts',
    senders: [{ file: 'src/app/actors/digital-human-clones.ts', to: ['all\\.watch'] }],
    tests: ['tests/model/clone-watch-view.test.tsx'],
  },
  'voice-preview': {
    machine: 'src/machines/digital-human/voice-preview.ts',
    senders: [{ file: 'src/views/digital-human/sound-clone-page.tsx', to: ['preview'] }],
    tests: ['tests/model/voice-preview-view.test.tsx'],
  },
  notifications: {
    machine: 'src/machines/notifications.ts',
    senders: [
      { file: 'src/app/actors/notifications.ts', to: ['bell'] },
      { file: 'src/views/notifications/notification-drawer.tsx', to: ['bell'] },
    ],
    tests: ['tests/model/notifications-view.test.tsx'],
  },
};

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
// One machine, or several: --machine money-call,transfer,exchange
const only = option('machine', null)?.split(',') ?? null;
const sample = Number(option('sample', '0'));
const kinds = option('kind', 'targets,sends').split(',');
/** `--at buy.ts:257,recharge-dialog.tsx:153`: only the mutations at these places. */
const at = option('at', '').split(',').filter(Boolean);
const hangFactor = Number(option('hang-factor', '3'));
const MIN_HANG_MS = 120 * 1000;
const chosen = (list) =>
  at.length ? list.filter((m) => at.some((w) => m.where.endsWith(w))) : list;
const root = resolve(new URL('..', import.meta.url).pathname);

const RESERVED = new Set(
  'on invoke after always states entry exit tags meta context actions guards onDone onError input types params id initial target'.split(
    ' ',
  ),
);

/** The state keys declared next to `name` (same `states: {}` block), from the indentation. */
function siblingsOf(lines, name) {
  const at = lines.findIndex((l) => new RegExp(`^\\s*${name}: \\{`).test(l));
  if (at < 0) return [];
  const indent = lines[at].search(/\S/);
  const inBlock = (l) => l.trim() === '' || l.search(/\S/) >= indent;
  let from = at;
  while (from > 0 && inBlock(lines[from - 1])) from--;
  let to = at;
  while (to < lines.length - 1 && inBlock(lines[to + 1])) to++;
  const keys = [];
  for (let i = from; i <= to; i++) {
    const m = /^(\s*)(\w+): \{/.exec(lines[i]);
    if (m && m[1].length === indent && !RESERVED.has(m[2])) keys.push(m[2]);
  }
  return keys;
}

/** Every transition target in the machine file, each with one valid replacement. */
function targetMutations(file) {
  const text = readFileSync(join(root, file), 'utf8');
  const lines = text.split('\n');
  const found = [];
  const pattern = /(target: |\b[A-Z_]+: )'(#\w+\.)?(\w+)'/g;
  for (const m of text.matchAll(pattern)) {
    const [, , prefix = '', state] = m;
    const siblings = siblingsOf(lines, state).filter((s) => s !== state);
    if (siblings.length === 0) continue;
    // The sibling after the original (stable across runs).
    const all = siblingsOf(lines, state);
    const next = all[(all.indexOf(state) + 1) % all.length];
    const replacement = next === state ? siblings[0] : next;
    const index = m.index + m[0].indexOf(`'${prefix}${state}'`);
    const line = text.slice(0, index).split('\n').length;
    found.push({
      kind: 'target',
      file,
      index,
      from: `'${prefix}${state}'`,
      to: `'${prefix}${replacement}'`,
      where: `${file}:${line}`,
    });
  }
  return found;
}

/**
 * Every `send({ type: 'X' … })` (or `send('X')`, a step-button callback) in the senders, each to
 * another event of the machine (named in `eventsFile`); with `eventCalls`, also every `f('X'` of
 * those helper functions. A sender `{ file, to }` counts only the sends to the actors `to` names.
 */
function sendMutations(eventsFile, senders, eventCalls = []) {
  const machineText = [eventsFile]
    .flat()
    .map((f) => readFileSync(join(root, f), 'utf8'))
    .join('\n');
  const events = [...new Set([...machineText.matchAll(/\{ type: '([A-Z_]+)'/g)].map((m) => m[1]))];
  const helpers = eventCalls.length ? `|\\b(?:${eventCalls.join('|')})\\(` : '';
  const found = [];
  for (const sender of senders) {
    const { file, to = [] } = typeof sender === 'string' ? { file: sender } : sender;
    const text = readFileSync(join(root, file), 'utf8');
    const receiver = to.length ? `\\b(?:${to.join('|')})\\.` : '';
    const pattern = new RegExp(
      `(?:${receiver}send\\((?:\\{\\s*type: )?${helpers})'([A-Z_]+)'`,
      'g',
    );
    for (const m of text.matchAll(pattern)) {
      const event = m.at(-1);
      if (!events.includes(event)) continue;
      const others = events.filter((e) => e !== event);
      // A machine of one event: the send is dropped (an event it does not know).
      const other = others.length ? others[events.indexOf(event) % others.length] : 'NO_SUCH_EVENT';
      const index = m.index + m[0].lastIndexOf(`'${event}'`);
      const line = text.slice(0, index).split('\n').length;
      // A send named in a comment is not code: changing it changes nothing.
      if (/^\s*(\*|\/\/)/.test(text.split('\n')[line - 1])) continue;
      found.push({
        kind: 'send',
        file,
        index,
        from: `'${event}'`,
        to: `'${other}'`,
        where: `${file}:${line}`,
      });
    }
  }
  return found;
}

function pick(list, n) {
  if (!n || n >= list.length) return list;
  // Evenly spread, deterministic.
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}

function copyRepo() {
  const dir = mkdtempSync(join(tmpdir(), 'mutate-'));
  // Everything the tests and their config read (the config imports build/), not the bulky rest.
  const skip = new Set(['node_modules', '.git', 'dist', 'data', '.tmp', 'test-results']);
  for (const entry of readdirSync(root)) {
    if (!skip.has(entry)) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/**
 * Runs the tests in `dir`: 'passed', 'failed' or (past `limitMs`) 'hang'. Vitest runs in its own
 * process group, so a hang stops it and its workers together.
 */
function runTests(dir, tests, only, limitMs = 30 * 60 * 1000) {
  const filter = only ? ['-t', only] : [];
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        join(root, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--bail',
        '1',
        '--reporter',
        'dot',
        ...filter,
        ...tests,
      ],
      // Path tests' time limits ×4: a loaded machine must not look like a caught mutation.
      {
        cwd: dir,
        detached: true,
        stdio: 'ignore',
        env: { ...process.env, UI_PATHS_TIMEOUT_FACTOR: '4' },
      },
    );
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done(hung ? 'hang' : code === 0 ? 'passed' : 'failed');
    });
  });
}

const targets = (spec) => spec.targets ?? spec.machine;

/** The machine files (src/machines, recursively) that no entry stands for. */
function withoutEntry() {
  const named = new Set(Object.values(MACHINES).map((spec) => spec.machine));
  const files = readdirSync(join(root, 'src/machines'), { recursive: true })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `src/machines/${f}`);
  return files.filter((f) => !named.has(f)).sort();
}

/** A machine's mutations as the options choose them (kinds, sample, places). */
function mutationsOf(spec) {
  return chosen([
    ...(kinds.includes('targets') ? pick(targetMutations(targets(spec)), sample) : []),
    ...(kinds.includes('sends')
      ? pick(sendMutations(spec.events ?? targets(spec), spec.senders, spec.eventCalls), sample)
      : []),
  ]);
}

const missing = withoutEntry();
for (const file of missing) console.error(`no entry for ${file}: add one to MACHINES`);

if (args.includes('--list')) {
  for (const [name, spec] of Object.entries(MACHINES)) {
    if (only && !only.includes(name)) continue;
    for (const m of mutationsOf(spec))
      console.log(`${name} ${m.kind} ${m.where} ${m.from} → ${m.to}`);
  }
  process.exit(missing.length ? 1 : 0);
}

const dir = copyRepo();
const report = [];
/** The unmutated run's duration (ms) for each set of tests that passed. */
const passed = new Map();
try {
  for (const [name, spec] of Object.entries(MACHINES)) {
    if (only && !only.includes(name)) continue;
    const mutations = mutationsOf(spec);
    // The unmutated copy must pass, or every mutation would look caught (once per set of tests).
    const baseline = `${spec.tests.join(' ')} ${spec.only ?? ''}`;
    if (!passed.has(baseline)) {
      const started = Date.now();
      if ((await runTests(dir, spec.tests, spec.only)) !== 'passed')
        throw new Error(`${name}: the tests fail without a mutation`);
      passed.set(baseline, Date.now() - started);
    }
    const limit = Math.max(MIN_HANG_MS, hangFactor * passed.get(baseline));
    console.log(
      `${name}: baseline ${Math.round(passed.get(baseline) / 1000)} s, hang limit ${Math.round(limit / 1000)} s, ${mutations.length} mutations`,
    );
    for (const mutation of mutations) {
      const path = join(dir, mutation.file);
      const original = readFileSync(path, 'utf8');
      const mutated =
        original.slice(0, mutation.index) +
        mutation.to +
        original.slice(mutation.index + mutation.from.length);
      writeFileSync(path, mutated);
      const started = Date.now();
      const outcome = await runTests(dir, spec.tests, spec.only, limit);
      writeFileSync(path, original);
      const seconds = Math.round((Date.now() - started) / 1000);
      const caught = outcome !== 'passed';
      const hang = outcome === 'hang';
      report.push({ machine: name, ...mutation, caught, hang });
      console.log(
        `${hang ? 'hang    ' : caught ? 'caught  ' : 'SURVIVED'} ${mutation.kind} ${mutation.where} ${mutation.from} → ${mutation.to} (${seconds} s)`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

for (const kind of ['target', 'send']) {
  const rows = report.filter((r) => r.kind === kind);
  const caught = rows.filter((r) => r.caught).length;
  const hangs = rows.filter((r) => r.hang);
  console.log(
    `${kind === 'target' ? 'transition targets' : 'button/effect events'}: ${caught} of ${rows.length} caught (${caught - hangs.length} by assertion, ${hangs.length} by hang)`,
  );
  for (const r of hangs)
    console.log(`  caught (hang): ${r.machine} ${r.where} ${r.from} → ${r.to}`);
  for (const r of rows.filter((row) => !row.caught))
    console.log(`  survivor: ${r.machine} ${r.where} ${r.from} → ${r.to}`);
}
