/**
 * The digital-human video form (/digital-human/create-video, src/views/digital-human/
 * create-video-page.tsx over the digital-human videos area) driven as a merchant would,
 * against a hand-written oracle: the form machine's shortest paths only propose event sequences;
 * each step is executed on the page (typing the text, the avatar's poster, the voice and folder
 * choices, the speed slider, "Create video"), the clock (the estimate's debounce) or a fake
 * endpoint settling, and what the person sees after it comes from TRANSITIONS / `sees` below: the
 * default name, the live character count and estimated length, the estimate of seconds and cost
 * against the balance, the contract's messages, the submission with its idempotency key (the
 * same key when the same draft is sent again) and the server's refusal. Once added, the video
 * list opens.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import {
  estimateSpeechSeconds,
  type DhVideoBody,
  type DhVideoEstimate,
  type ImageClone,
  type VoiceClone,
} from '../../src/api/contract/digital-human';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  checkDhVideoDraft,
  dhVideosArea,
  type DhVideosEndpoints,
} from '../../src/app/actors/digital-human-videos';
import { Providers } from '../../src/app/boot/providers';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import {
  createDhVideoFormMachine,
  freshDhVideoDraft,
} from '../../src/machines/digital-human/video-form';
import { ESTIMATE_DEBOUNCE_MS } from '../../src/machines/task-form';
import CreateVideoPage from '../../src/views/digital-human/create-video-page';
import { dhTemplatesArea } from '../../src/app/actors/digital-human-templates';
import { MINE, PLATFORM, PORTRAIT, templatesEndpoints } from './dh-template-fixtures';
import { replyError } from './fixtures';
import { clipResource, shopAuth } from './video-task-fixtures';
import { person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const NOW = new Date(2026, 10, 26, 9, 5);
const DEFAULT_NAME = 'DigitalHuman_20261126 0905';
const SPEECH = 'Hello from the demo presenter. Welcome!';
const ESTIMATE_FAILED = 'Avatar 3 was not found or is not ready';
const ADD_REFUSED = 'Not enough digital-human seconds: 4 needed, 0 left';

const AVATAR: ImageClone = {
  id: 3,
  owner_id: 9,
  owner_name: 'shop9',
  name: 'Anna',
  tier: 'standard',
  status: 'ready',
  reason: null,
  progress: 100,
  queue_position: null,
  video_id: 1,
  consent_video_id: 2,
  cover: '/files/anna.jpg',
  preview_url: '/files/anna.mp4',
  demonstration: true,
  cost: 1,
  refunded: 0,
  created_at: 0,
  finished_at: 1,
};
const voice = (id: number, name: string, scope: 'mine' | 'public'): VoiceClone => ({
  id,
  owner_id: scope === 'mine' ? 9 : null,
  owner_name: scope === 'mine' ? 'shop9' : null,
  name,
  gender: 'female',
  scope,
  status: 'ready',
  reason: null,
  progress: 100,
  queue_position: null,
  audio_id: null,
  demo_url: `/files/voice-${id}.wav`,
  demonstration: true,
  cost: 0,
  refunded: 0,
  created_at: 0,
  finished_at: 1,
});
const MY_VOICE = voice(5, 'My voice', 'mine');
const PUBLIC_VOICE = voice(6, 'Xiaoyan', 'public');
const FOLDER = { id: 8, name: 'Spring', count: 0 };

const estimateOf = (speed: number): DhVideoEstimate => {
  const seconds = estimateSpeechSeconds(SPEECH, speed);
  return { characters: SPEECH.length, seconds, unit_cost: 1, cost: seconds, balance: 600 };
};

// ---------------------------------------------------------------------------------------------
// The oracle (docs/domain.md §10). The form opens with the default name; the person writes
// the text and picks the avatar, a voice and the folder (FILL), may speed the speech up to 1.5
// while the estimate is asked (the call is aborted), and creates the video.

const TRANSITIONS: Record<string, string> = {
  // Nothing written or picked: the rules' messages under the text, avatar, voice and folder.
  'blank SUBMIT': 'blank, refused',
  'blank FILL': 'waiting',
  'waiting TIMER': 'loading',
  'loading done estimate': 'shown',
  'loading error estimate': 'estimate refused',
  'estimate refused RETRY_ESTIMATE': 'loading',
  // The call under way is aborted; the wait starts again.
  'loading SPEED': 'waiting fast',
  'waiting fast TIMER': 'loading fast',
  'loading fast done estimate': 'shown fast',
  'shown SUBMIT': 'submitting',
  'shown fast SUBMIT': 'submitting fast',
  'submitting done submit': 'video list',
  'submitting error submit': 'add refused',
  // The same draft again: the same idempotency key.
  'add refused SUBMIT': 'submitting again',
  'submitting again done submit': 'video list',
  'submitting fast done submit': 'video list',
};

type PathEvent = { type: string; by?: string; patch?: Record<string, unknown> };
const AFTER = 'xstate.after.400.dhVideoForm.open.estimate.waiting';
const label = (e: PathEvent) =>
  e.by ??
  (e.type === AFTER
    ? 'TIMER'
    : e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 '));

/** The form's machine with the area's rules (the contract's check): it only proposes paths. */
const proposer = createDhVideoFormMachine({
  check: checkDhVideoDraft,
  fresh: () => freshDhVideoDraft(DEFAULT_NAME),
  newKey: () => 'key',
});
type Snapshot = ReturnType<ReturnType<typeof createActor<typeof proposer>>['getSnapshot']>;

const FILL = {
  text: SPEECH,
  avatar: { id: 3, name: 'Anna', cover: null, preview_url: null, demonstration: true },
  voice: { id: 6, name: 'Xiaoyan', scope: 'public', gender: 'female', demo_url: null },
  folderId: 8,
};

function events(s: Snapshot): PathEvent[] {
  const d = s.context.draft;
  if (s.context.completed > 0) return [];
  const list: PathEvent[] = [];
  if (!d.avatar) {
    if (!s.context.submitted)
      list.push({ type: 'SUBMIT' }, { type: 'EDIT', patch: FILL, by: 'FILL' });
    return list;
  }
  list.push({ type: AFTER });
  list.push({ type: 'xstate.done.actor.estimate', output: estimateOf(d.speed) } as never);
  if (d.speed === 1) {
    list.push({
      type: 'xstate.error.actor.estimate',
      error: replyError(ESTIMATE_FAILED, 'transport'),
    } as never);
    list.push({ type: 'RETRY_ESTIMATE' });
    if (s.matches({ open: { estimate: 'loading' } }) && !s.context.estimateError) {
      list.push({ type: 'EDIT', patch: { speed: 1.5 }, by: 'SPEED' });
    }
  }
  if (s.matches({ open: { estimate: 'shown' } }) && s.matches({ open: { form: 'editing' } })) {
    list.push({ type: 'SUBMIT' });
  }
  list.push({ type: 'xstate.done.actor.submit', output: { id: 21 } } as never);
  if (!s.context.error && d.speed === 1) {
    list.push({ type: 'xstate.error.actor.submit', error: replyError(ADD_REFUSED) } as never);
  }
  return list.filter((e) => s.can(e as never));
}

// ---------------------------------------------------------------------------------------------

/** A piece of music in the caller's library (the music picker lists it). */
const SONG = {
  ...clipResource(31, 'Sunny day.mp3', 20),
  type: 'bgm' as const,
  content_type: 'audio/mpeg',
  width: null,
  height: null,
  codec: 'mp3',
  cover: null,
};

function setup() {
  vi.setSystemTime(NOW);
  const estimates: {
    body: DhVideoBody;
    signal?: AbortSignal;
    settled: boolean;
    resolve: (v: DhVideoEstimate) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const adds: {
    body: DhVideoBody;
    key: string | null;
    resolve: (v: { id: number }) => void;
    reject: (e: unknown) => void;
  }[] = [];
  let keys = 0;
  let previews = 0;
  const never = () => new Promise<never>(() => {});
  const endpoints: DhVideosEndpoints = {
    getDhVideos: async () => ({ list: [], total: 0 }),
    getDhVideo: never,
    renameDhVideo: never,
    deleteDhVideos: never,
    resubmitDhVideo: never,
    estimateDhVideo: (body, options) =>
      new Promise((resolve, reject) => {
        estimates.push({ body, signal: options?.signal, settled: false, resolve, reject });
      }),
    addDhVideo: (body, key) =>
      new Promise((resolve, reject) => adds.push({ body, key, resolve, reject })),
    getReadyAvatars: async () => ({ list: [AVATAR], total: 1 }),
    getReadyVoices: async (q) =>
      q.scope === 'mine' ? { list: [MY_VOICE], total: 1 } : { list: [PUBLIC_VOICE], total: 1 },
    previewVoice: async () => {
      previews++;
      return { url: `/files/sample-${previews}.wav`, duration: 2, demonstration: true };
    },
    getGroups: async () => ({ list: [FOLDER], ungrouped: 0 }),
    getResources: async () => ({ list: [SONG], total: 1 }),
    newIdempotencyKey: () => `key-${++keys}`,
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, dhVideosArea, endpoints);
  provideArea(actors, dhTemplatesArea, templatesEndpoints([PORTRAIT, PLATFORM, MINE]));
  const area = () => areasOf(actors).get(dhVideosArea);
  const router = createMemoryRouter(
    [
      { path: '/digital-human/create-video', element: <CreateVideoPage /> },
      { path: '/digital-human/digital-video', element: <h1>video list</h1> },
    ],
    { initialEntries: ['/digital-human/create-video'] },
  );
  render(
    <Providers actors={actors}>
      <RouterProvider router={router} />
    </Providers>,
  );
  const user = person();
  const tick = async (ms: number) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const page = () => within(screen.getByRole('region', { name: text('route.createVideo') }));
  const named = (name: string) =>
    new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);
  const panel = () => within(page().getByRole('region', { name: text('dhVideoForm.estimate') }));
  const live = () => estimates.filter((c) => !c.settled && !c.signal?.aborted);
  const settleEstimate = async (outcome: 'done' | 'error', value: unknown) => {
    const call = live().at(-1);
    expect(call, 'an estimate under way').toBeDefined();
    call!.settled = true;
    if (outcome === 'done') call!.resolve(value as DhVideoEstimate);
    else call!.reject(value);
    await tick(0);
  };

  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'SUBMIT':
        return user.click(page().getByRole('button', { name: text('dhVideoForm.submit') }));
      case 'FILL': {
        await user.click(page().getByRole('textbox', { name: named(text('dhVideoForm.text')) }));
        await user.paste(SPEECH);
        await user.click(page().getByRole('radio', { name: AVATAR.name }));
        await user.selectOptions(
          page().getByRole('combobox', { name: named(text('dhVideoForm.voiceChoice')) }),
          String(PUBLIC_VOICE.id),
        );
        return user.selectOptions(
          page().getByRole('combobox', { name: named(text('dhVideoForm.folder')) }),
          String(FOLDER.id),
        );
      }
      case 'SPEED':
        fireEvent.change(page().getByRole('slider', { name: text('dhVideoForm.speed') }), {
          target: { value: '1.5' },
        });
        return tick(0);
      case 'TIMER': {
        const before = estimates.length;
        await tick(ESTIMATE_DEBOUNCE_MS - 1);
        expect(estimates.length, 'an estimate asked before the debounce ended').toBe(before);
        return tick(1);
      }
      case 'done estimate':
        return settleEstimate('done', estimateOf(area().form.getSnapshot().context.draft.speed));
      case 'error estimate':
        return settleEstimate('error', replyError(ESTIMATE_FAILED, 'transport'));
      case 'RETRY_ESTIMATE':
        return user.click(panel().getByRole('button', { name: text('taskForm.estimateRetry') }));
      case 'done submit':
        adds.at(-1)!.resolve({ id: 21 });
        return tick(0);
      case 'error submit':
        adds.at(-1)!.reject(replyError(ADD_REFUSED));
        return tick(0);
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  const nameField = () =>
    page().getByRole('textbox', { name: named(text('dhVideoForm.name')) }) as HTMLInputElement;
  const counted = (speed: number) =>
    expect(page().getByTestId('dh-text-count').textContent).toBe(
      text('dhVideoForm.textCount', {
        count: SPEECH.length,
        max: 5000,
        seconds: estimateSpeechSeconds(SPEECH, speed),
      }),
    );
  const filled = () => {
    expect(nameField().value).toBe(DEFAULT_NAME);
    expect((page().getByRole('radio', { name: AVATAR.name }) as HTMLInputElement).checked).toBe(
      true,
    );
    // The chosen avatar's loop and the chosen voice's demo.
    page().getByLabelText(text('dhVideoForm.avatarLoop', { name: AVATAR.name }));
    page().getByLabelText(text('dhVideoForm.voiceDemo', { name: PUBLIC_VOICE.name }));
  };
  const waiting = () => {
    expect(panel().getByText(text('taskForm.estimating'))).toBeTruthy();
    expect(live()).toEqual([]);
  };
  const asked = (speed: number) => {
    expect(panel().getByText(text('taskForm.estimating'))).toBeTruthy();
    expect(live()).toHaveLength(1);
    expect(live()[0].body).toEqual({
      name: 'estimate',
      text: SPEECH,
      avatar_id: 3,
      voice_id: 6,
      speed,
      volume: 1,
      subtitles: true,
      folder_id: 8,
    });
  };
  const shown = (speed: number) => {
    expect(live()).toEqual([]);
    const e = estimateOf(speed);
    expect(panel().getByTestId('dh-estimate-seconds').textContent).toBe(String(e.seconds));
    // Digital-human time as everywhere: minutes and seconds, exact.
    expect(panel().getByTestId('dh-estimate-cost').textContent).toBe(`${e.cost} s`);
    expect(panel().getByTestId('dh-estimate-balance').textContent).toBe('10 min');
  };
  const sent = (index: number, speed: number, key: string) => {
    expect(adds).toHaveLength(index + 1);
    expect(adds[index].key).toBe(key);
    expect(adds[index].body).toEqual({
      name: DEFAULT_NAME,
      text: SPEECH,
      avatar_id: 3,
      voice_id: 6,
      speed,
      volume: 1,
      subtitles: true,
      folder_id: 8,
    });
    expect(
      page()
        .getByRole('button', { name: text('dhVideoForm.submit') })
        .hasAttribute('disabled'),
    ).toBe(true);
  };

  const SEES: Record<string, () => void | Promise<void>> = {
    blank: () => {
      expect(nameField().value).toBe(DEFAULT_NAME);
      expect(panel().getByText(text('dhVideoForm.estimateBlank'))).toBeTruthy();
      expect(page().queryByText(text('dhVideoForm.avatarMissing'))).toBeNull();
      // The pickers list the ready avatar and both voices (mine and public).
      page().getByRole('radio', { name: AVATAR.name });
      page().getByRole('option', { name: MY_VOICE.name });
      page().getByRole('option', { name: PUBLIC_VOICE.name });
    },
    'blank, refused': () => {
      page().getByText(enUS['validation.speechText']);
      page().getByText(text('dhVideoForm.avatarMissing'));
      page().getAllByText(text('dhVideoForm.voiceMissing'));
      page().getByText(text('dhVideoForm.folderMissing'));
      expect(adds).toEqual([]);
    },
    waiting: () => {
      filled();
      counted(1);
      waiting();
    },
    loading: () => asked(1),
    shown: () => {
      filled();
      shown(1);
    },
    'estimate refused': () => {
      expect(panel().getByText(ESTIMATE_FAILED)).toBeTruthy();
      expect(live()).toEqual([]);
    },
    'waiting fast': () => {
      // The older call was aborted.
      expect(estimates.some((c) => c.signal?.aborted)).toBe(true);
      counted(1.5);
      waiting();
    },
    'loading fast': () => asked(1.5),
    'shown fast': () => shown(1.5),
    submitting: () => sent(0, 1, 'key-1'),
    'submitting fast': () => sent(0, 1.5, 'key-1'),
    'add refused': () => {
      expect(page().getByRole('alert').textContent).toContain(ADD_REFUSED);
      filled();
    },
    'submitting again': () => sent(1, 1, 'key-1'),
    'video list': () => {
      screen.getByRole('heading', { name: 'video list' });
      // The form starts afresh for the next video.
      expect(area().form.getSnapshot().context.draft.avatar).toBeNull();
      expect(area().form.getSnapshot().context.key).toBeNull();
    },
  };
  return {
    exec,
    sees: SEES,
    page,
    user,
    router,
    named,
    previews: () => previews,
    estimates,
    dispose: () => actors.dispose(),
  };
}

viewPathHooks();

describe('the digital-human video form', () => {
  uiPaths({
    oracle: { initial: 'blank', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(proposer, {
      events: (s) => events(s as Snapshot) as never[],
      serializeState: (s, e) =>
        JSON.stringify([
          s.value,
          (s as Snapshot).context.draft.avatar?.id ?? null,
          (s as Snapshot).context.draft.speed,
          (s as Snapshot).context.submitted,
          (s as Snapshot).context.error,
          (s as Snapshot).context.estimateError,
          (s as Snapshot).context.key,
          (s as Snapshot).context.completed,
          e ? label(e as PathEvent) : null,
        ]),
    }) as never,
    run: async (_, walk) => {
      const world = setup();
      await walk({ exec: world.exec as never, sees: world.sees });
      world.dispose();
    },
    timeout: 30_000,
  });

  it('a sample heard before the video was added is gone when the form starts afresh', async () => {
    const world = setup();
    const sample = () => world.page().queryByTestId('dh-voice-preview');
    for (const type of ['EDIT', AFTER, 'xstate.done.actor.estimate']) {
      await world.exec(type === 'EDIT' ? { type, by: 'FILL' } : { type });
    }
    await world.user.click(world.page().getByRole('button', { name: text('dhVideoForm.preview') }));
    await vi.waitFor(() => expect(sample()?.getAttribute('src')).toBe('/files/sample-1.wav'));
    for (const type of ['SUBMIT', 'xstate.done.actor.submit']) await world.exec({ type });
    world.sees['video list']();
    await act(() => world.router.navigate('/digital-human/create-video'));
    await world.user.selectOptions(
      world.page().getByRole('combobox', { name: world.named(text('dhVideoForm.voiceChoice')) }),
      String(PUBLIC_VOICE.id),
    );
    expect(sample()).toBeNull();
    expect(world.previews()).toBe(1);
    world.dispose();
  }, 60_000);

  it('music picked from the library is shown on the form and priced with the video', async () => {
    const world = setup();
    await world.exec({ type: 'EDIT', by: 'FILL' });
    await world.user.click(
      world.page().getByRole('button', { name: text('dhVideoForm.pickMusic') }),
    );
    const picker = await vi.waitFor(() => {
      const el = screen.queryAllByRole('dialog').filter(isOpen)[0];
      expect(el, 'the picker').toBeDefined();
      within(el).getByRole('list', { name: text('taskForm.pickerList') });
      return within(el);
    });
    await world.user.click(
      picker.getByRole('checkbox', { name: text('resources.select', { name: SONG.name }) }),
    );
    await world.user.click(picker.getByRole('button', { name: text('taskForm.pickConfirm') }));
    const music = within(world.page().getByRole('list', { name: text('dhVideoForm.music') }));
    music.getByText(SONG.name);
    await world.exec({ type: AFTER });
    expect(world.estimates.at(-1)?.body).toMatchObject({ music_id: SONG.id });
    world.dispose();
  }, 60_000);

  it('a template is chosen from its card with its layout drawn; the estimate and the video carry it', async () => {
    const world = setup();
    await world.exec({ type: 'EDIT', by: 'FILL' });
    const cards = within(
      world.page().getByRole('radiogroup', { name: text('dhVideoForm.template') }),
    );
    // The default (chosen: no template), then the platform's and the person's own, each drawn.
    expect(cards.getAllByRole('radio').map((r) => (r as HTMLInputElement).checked)).toEqual([
      true,
      false,
      false,
    ]);
    expect(cards.getAllByRole('img').length).toBe(3);
    await world.user.click(cards.getByRole('radio', { name: new RegExp(MINE.name) }));
    const chosen = within(
      world.page().getByRole('group', {
        name: text('dhVideoForm.chosenTemplate', { name: MINE.name }),
      }),
    );
    chosen.getByText('calm.mp3');
    chosen.getByRole('img', {
      name: text('dhTemplates.frameLabel', {
        ratio: '9:16',
        x: 60,
        y: 5,
        width: 35,
        height: 95,
        subtitle: 85,
      }),
    });
    await world.exec({ type: AFTER });
    expect(world.estimates.at(-1)?.body).toMatchObject({ template_id: MINE.id });
    // Back to the default: no template in the body.
    await world.user.click(
      cards.getByRole('radio', {
        name: text('dhVideoForm.defaultTemplate', { name: PORTRAIT.name }),
      }),
    );
    await world.exec({ type: AFTER });
    expect(world.estimates.at(-1)?.body).not.toHaveProperty('template_id');
    world.dispose();
  }, 60_000);
});
