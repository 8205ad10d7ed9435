/**
 * The clone create dialogs (src/views/digital-human/image-clone-page.tsx and sound-clone-page.tsx
 * over the digital-human clones area) driven as a merchant would, against a hand-written
 * oracle: the clone-form machine's shortest paths only propose event sequences; each step is
 * executed on the rendered page (the "New … clone" button, typing the name, choosing the videos or
 * the audio sample and the gender, Create, Cancel) or a fake endpoint settling, and what the person
 * sees after it comes from TRANSITIONS / `sees` below: the contract's messages (name, the missing
 * media, a source video or sample of the wrong length), the body sent, the server's refusal shown
 * in the dialog with the values kept, and after a success the dialog gone, the notice and the list
 * loaded again. One table for both dialogs: they follow the same rules with their own fields.
 * Then: a file uploaded from the dialog fills the slot it was uploaded for.
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type {
  DhAddReply,
  ImageClone,
  ImageCloneAddBody,
  VoiceClone,
  VoiceCloneAddBody,
} from '../../src/api/contract/digital-human';
import type { Resource, UploadTokenReply } from '../../src/api/contract/resources';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import {
  digitalHumanClonesArea,
  imageCloneFormMachine,
  voiceCloneFormMachine,
  type DigitalHumanClonesEndpoints,
} from '../../src/app/actors/digital-human-clones';
import { uploadsArea, type UploadsEndpoints } from '../../src/app/actors/uploads';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import ImageClonePage from '../../src/views/digital-human/image-clone-page';
import SoundClonePage from '../../src/views/digital-human/sound-clone-page';
import { replyError } from './fixtures';
import { clipResource, shopAuth } from './video-task-fixtures';
import { person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const audioResource = (id: number, name: string, duration: number): Resource => ({
  ...clipResource(id, name, duration),
  type: 'audio',
  cover: null,
  content_type: 'audio/mpeg',
  width: null,
  height: null,
  codec: 'mp3',
});

/** The caller's library: a 60 s presenter take, a 10 s consent, a 12 s clip (too short). */
const TAKE = clipResource(1, 'Presenter take', 60);
const CONSENT = clipResource(2, 'Consent', 10);
const SHORT_CLIP = clipResource(3, 'Short clip', 12);
/** A 20 s sample, a 5 s one (too short). */
const SAMPLE = audioResource(11, 'Sample', 20);
const SHORT_SAMPLE = audioResource(12, 'Short sample', 5);

const NAME = 'Anna';
const REFUSED = 'Your image clone balance is short of 1';

type Kind = 'image' | 'voice';

// ---------------------------------------------------------------------------------------------
// The oracle, from docs/domain.md §10: the dialog opens blank; Create with nothing says
// what is missing and sends nothing; once everything is filled (FILL: name, the media, the tier
// or gender) the messages go; a source video or sample of the wrong length (SHORT) is refused
// on Create without a call; the server's refusal keeps the values and Create sends again; a
// success closes the dialog, says so and loads the list again.

const TRANSITIONS: Record<string, string> = {
  'closed OPEN': 'blank',
  'blank CLOSE': 'closed',
  'blank SUBMIT': 'blank, refused',
  'blank FILL': 'filled',
  'blank, refused FILL': 'filled',
  'filled SHORT': 'short',
  'short SUBMIT': 'short, refused',
  'filled SUBMIT': 'submitting',
  'submitting error submit': 'add refused',
  'add refused SUBMIT': 'submitting',
  'submitting done submit': 'closed, added',
};

type PathEvent = { type: string; by?: string; patch?: Record<string, unknown> };

const label = (e: PathEvent) =>
  e.by ?? e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');

type FormSnapshot = ReturnType<
  ReturnType<typeof createActor<typeof imageCloneFormMachine>>['getSnapshot']
>;

/** The proposals: what a person can do in a state (few ways in, so the paths stay few). */
function events(kind: Kind) {
  return (s: FormSnapshot) => {
    const d = s.context.draft as unknown as Record<string, unknown>;
    const media = kind === 'image' ? 'video' : 'audio';
    const filled = d.name !== '';
    const short =
      (d[media] as { duration?: number } | null)?.duration === (kind === 'image' ? 12 : 5);
    const list: PathEvent[] = [];
    if (s.matches('closed')) {
      if (s.context.completed === 0) list.push({ type: 'OPEN' });
      return list;
    }
    if (s.matches('editing')) {
      if (!filled) {
        if (!s.context.submitted) list.push({ type: 'CLOSE' }, { type: 'SUBMIT' });
        list.push({ type: 'EDIT', by: 'FILL', patch: { name: NAME } });
      } else if (short) {
        if (!s.context.submitted) list.push({ type: 'SUBMIT' });
      } else {
        list.push({ type: 'SUBMIT' });
        if (!s.context.submitted) list.push({ type: 'EDIT', by: 'SHORT', patch: { [media]: {} } });
      }
      return list.filter((e) => e.by !== 'SHORT' || !s.context.error);
    }
    list.push({ type: 'xstate.done.actor.submit', output: { id: 42 } } as PathEvent);
    if (!s.context.error) list.push({ type: 'xstate.error.actor.submit' } as PathEvent);
    return list;
  };
}

/** The machine's stand-in drafts: the path only needs the shape the proposals read. */
function proposeFill(kind: Kind, e: PathEvent): PathEvent {
  if (e.by === 'FILL')
    return {
      ...e,
      patch:
        kind === 'image'
          ? { name: NAME, video: { ...TAKE }, consent: { ...CONSENT }, tier: 'advanced' }
          : { name: NAME, gender: 'female', audio: { ...SAMPLE } },
    };
  if (e.by === 'SHORT')
    return {
      ...e,
      patch: kind === 'image' ? { video: { ...SHORT_CLIP } } : { audio: { ...SHORT_SAMPLE } },
    };
  return e;
}

const uploadGrant: UploadTokenReply = {
  upload_key: 'k',
  expire_at: Date.now() + 3_600_000,
  method: 'multipart',
  tus: null,
  multipart: { part_size: 1024, part_count: 1, parts: [{ part_number: 1, url: '/p/1' }] },
} as UploadTokenReply;

function world(kind: Kind) {
  const adds: {
    body: ImageCloneAddBody | VoiceCloneAddBody;
    resolve: (v: DhAddReply) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const listCalls = { image: 0, voice: 0 };
  const uploaded: Resource[] = [];
  const add = (body: ImageCloneAddBody | VoiceCloneAddBody) =>
    new Promise<DhAddReply>((resolve, reject) => adds.push({ body, resolve, reject }));
  const endpoints: DigitalHumanClonesEndpoints = {
    getImageClones: async () => {
      listCalls.image++;
      return { list: [] as ImageClone[], total: 0 };
    },
    addImageClone: add,
    deleteImageClones: async () => ({ count: 0 }),
    getVoiceClones: async (query) => {
      if (query.scope === 'mine') listCalls.voice++;
      return { list: [] as VoiceClone[], total: 0 };
    },
    addVoiceClone: add,
    deleteVoiceClones: async () => ({ count: 0 }),
    previewVoice: async () => ({ url: '/x', duration: 1, demonstration: true }),
    getResources: async (query) =>
      query.type === 'audio'
        ? { list: [...uploaded.filter((r) => r.type === 'audio'), SAMPLE, SHORT_SAMPLE], total: 2 }
        : {
            list: [...uploaded.filter((r) => r.type === 'video'), TAKE, CONSENT, SHORT_CLIP],
            total: 3,
          },
  };
  /** Uploads that go through at once: each file becomes `next` resource. */
  let next: Resource | null = null;
  const uploads: UploadsEndpoints = {
    requestUploadGrant: async () => uploadGrant,
    transfer: () => ({ done: Promise.resolve(), abort: () => {} }),
    discardTransfer: async () => {},
    addResource: async () => {
      const resource = next!;
      uploaded.unshift(resource);
      return resource;
    },
    getQuota: async () => ({ used: 0, quota: 1024 ** 3 }),
    records: { load: () => [], save: () => {} },
    now: () => Date.now(),
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, digitalHumanClonesArea, endpoints);
  provideArea(actors, uploadsArea, uploads);
  const area = () => areasOf(actors).get(digitalHumanClonesArea);
  renderAt(
    actors,
    kind === 'image' ? <ImageClonePage /> : <SoundClonePage />,
    kind === 'image' ? '/digital-human/image-clone' : '/digital-human/sound-clone',
  );
  const user = person();
  const title = text(kind === 'image' ? 'dhClones.newImageTitle' : 'dhClones.newVoiceTitle');
  const dialog = () => {
    const d = screen
      .queryAllByRole('dialog')
      .filter(isOpen)
      .find((el) => within(el).queryByRole('heading', { name: title }));
    return d ? within(d) : null;
  };
  const form = () => {
    const d = dialog();
    expect(d, 'the dialog').not.toBeNull();
    return d!;
  };
  const field = (id: MessageId) =>
    form().getByRole(id === 'dhClones.name' ? 'textbox' : 'combobox', {
      name: new RegExp(`^${text(id)}\\s*\\*?$`),
    }) as HTMLInputElement & HTMLSelectElement;
  const tick = async (ms = 0) => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };
  const choose = async (id: MessageId, resource: Resource) => {
    // The choices load with the dialog.
    await vi.waitFor(() => expect(field(id).querySelectorAll('option').length).toBeGreaterThan(2));
    await user.selectOptions(field(id), String(resource.id));
  };
  const submitLabel = text(kind === 'image' ? 'dhClones.submitImage' : 'dhClones.submitVoice');

  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'OPEN':
        return user.click(
          screen.getByRole('button', {
            name: text(kind === 'image' ? 'dhClones.newImage' : 'dhClones.newVoice'),
          }),
        );
      case 'CLOSE':
        return user.click(form().getByRole('button', { name: text('form.cancel') }));
      case 'SUBMIT':
        return user.click(form().getByRole('button', { name: submitLabel }));
      case 'FILL':
        await user.type(field('dhClones.name'), NAME);
        if (kind === 'image') {
          await choose('dhClones.sourceVideo', TAKE);
          await choose('dhClones.consentVideo', CONSENT);
          return user.selectOptions(field('dhClones.tier'), 'advanced');
        }
        await user.selectOptions(field('dhClones.gender'), 'female');
        return choose('dhClones.sample', SAMPLE);
      case 'SHORT':
        return kind === 'image'
          ? choose('dhClones.sourceVideo', SHORT_CLIP)
          : choose('dhClones.sample', SHORT_SAMPLE);
      case 'done submit':
        adds[adds.length - 1].resolve({ id: 42 });
        return tick();
      case 'error submit':
        adds[adds.length - 1].reject(replyError(REFUSED));
        return tick();
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  const missing: MessageId[] =
    kind === 'image'
      ? ['validation.cloneName', 'dhClones.pickVideo', 'dhClones.pickConsent']
      : ['validation.cloneName', 'validation.voiceGender', 'dhClones.pickAudio'];
  const allMessages: MessageId[] = [
    ...missing,
    kind === 'image' ? 'dhClones.videoRule' : 'dhClones.audioRule',
  ];
  const shows = (ids: MessageId[]) => {
    for (const id of allMessages) {
      const has = form().queryByText(text(id)) !== null;
      expect(has, `the message ${id}`).toBe(ids.includes(id));
    }
  };
  const expectedBody =
    kind === 'image'
      ? { name: NAME, video_id: TAKE.id, consent_video_id: CONSENT.id, tier: 'advanced' }
      : { name: NAME, gender: 'female', audio_id: SAMPLE.id };
  const listed = () => listCalls[kind];
  let listedAtOpen = 0;

  const sees: Record<string, () => void | Promise<void>> = {
    closed: () => {
      expect(dialog()).toBeNull();
      expect(adds).toEqual([]);
      listedAtOpen = listed();
    },
    blank: () => {
      expect(field('dhClones.name').value).toBe('');
      shows([]);
      expect(form().queryByRole('alert')).toBeNull();
    },
    'blank, refused': () => {
      shows(missing);
      expect(adds).toEqual([]);
    },
    filled: () => {
      shows([]);
      expect(field('dhClones.name').value).toBe(NAME);
      expect(adds).toEqual([]);
    },
    short: () => {
      shows([]);
      expect(adds).toEqual([]);
    },
    'short, refused': () => {
      shows([kind === 'image' ? 'dhClones.videoRule' : 'dhClones.audioRule']);
      expect(adds).toEqual([]);
    },
    submitting: () => {
      expect(adds.length).toBeGreaterThan(0);
      expect(adds[adds.length - 1].body).toEqual(expectedBody);
      expect(form().getByRole('button', { name: submitLabel }).hasAttribute('disabled')).toBe(true);
    },
    'add refused': () => {
      expect(form().getByRole('alert').textContent).toContain(REFUSED);
      expect(field('dhClones.name').value).toBe(NAME);
      expect(form().getByRole('button', { name: submitLabel }).hasAttribute('disabled')).toBe(
        false,
      );
    },
    'closed, added': async () => {
      expect(dialog()).toBeNull();
      expect(listed(), 'the list loaded again').toBe(listedAtOpen + 1);
      await vi.waitFor(
        () =>
          screen.getByText(text(kind === 'image' ? 'dhClones.imageAdded' : 'dhClones.voiceAdded')),
        { timeout: 5000 },
      );
    },
  };

  const actual = () => {
    const s = (kind === 'image' ? area().imageForm : area().voiceForm).getSnapshot();
    if (s.matches('closed')) return s.context.completed ? 'closed, added' : 'closed';
    if (s.matches('submitting')) return 'submitting';
    if (s.context.error) return 'add refused';
    const d = s.context.draft as unknown as Record<string, { duration?: number } | string>;
    if (d.name === '') return s.context.submitted ? 'blank, refused' : 'blank';
    const media = d[kind === 'image' ? 'video' : 'audio'] as { duration: number };
    if (media.duration === (kind === 'image' ? 12 : 5))
      return s.context.submitted ? 'short, refused' : 'short';
    return 'filled';
  };

  const upload = async (resource: Resource, slot: MessageId) => {
    next = resource;
    const zone = within(
      form().getByTestId(
        slot === 'dhClones.consentVideo'
          ? 'slot-consent'
          : slot === 'dhClones.sample'
            ? 'slot-audio'
            : 'slot-video',
      ),
    );
    const input = zone.getByLabelText(text('uploads.chooseFiles')) as HTMLInputElement;
    await user.click(zone.getByRole('button', { name: text('uploads.upload') }));
    await user.upload(
      input,
      new File(['x'], `${resource.name}.${resource.type === 'audio' ? 'mp3' : 'mp4'}`, {
        type: resource.content_type,
      }),
    );
    await tick();
  };

  return { exec, sees, actual, upload, form, field, dispose: () => actors.dispose() };
}

viewPathHooks();

for (const kind of ['image', 'voice'] as const) {
  const machine = kind === 'image' ? imageCloneFormMachine : voiceCloneFormMachine;
  describe(`the ${kind} clone dialog`, () => {
    uiPaths({
      oracle: { initial: 'closed', transitions: TRANSITIONS, label },
      proposed: getShortestPaths(machine as typeof imageCloneFormMachine, {
        events: (s) => events(kind)(s).map((e) => proposeFill(kind, e)) as never[],
        serializeState: (s) =>
          JSON.stringify([s.value, actualOfSnapshot(kind, s), s.context.submitted]),
      }) as never,
      // Closing a blank dialog leaves the page as it was: no shortest path takes it.
      more: [
        {
          steps: [
            { event: { type: 'xstate.init' } },
            { event: { type: 'OPEN' } },
            { event: { type: 'CLOSE' } },
            { event: { type: 'OPEN' } },
          ],
        },
      ] as never,
      run: async (_, walk) => {
        const w = world(kind);
        await walk({ exec: w.exec as never, sees: w.sees, actual: w.actual });
        w.dispose();
      },
      timeout: 30_000,
    });
  });
}

/** The proposals' own name of a state (only to tell states apart; never an expectation). */
function actualOfSnapshot(kind: Kind, s: FormSnapshot): string {
  const d = s.context.draft as unknown as Record<string, unknown>;
  const media = d[kind === 'image' ? 'video' : 'audio'] as { duration?: number } | null;
  return [d.name, media?.duration ?? null, s.context.error, s.context.completed].join('|');
}

test('a video uploaded from the image clone dialog fills the slot it was uploaded for', async () => {
  const w = world('image');
  await w.exec({ type: 'OPEN' });
  const fresh = { ...clipResource(21, 'New consent', 8), created_at: 1 };
  await w.upload(fresh, 'dhClones.consentVideo');
  await vi.waitFor(() => expect(w.field('dhClones.consentVideo').value).toBe('21'));
  expect(w.field('dhClones.sourceVideo').value).toBe('');
  const take = { ...clipResource(22, 'New take', 45), created_at: 2 };
  await w.upload(take, 'dhClones.sourceVideo');
  await vi.waitFor(() => expect(w.field('dhClones.sourceVideo').value).toBe('22'));
  expect(w.field('dhClones.consentVideo').value).toBe('21');
  w.dispose();
}, 30_000);

test('an audio uploaded from the voice clone dialog becomes its sample', async () => {
  const w = world('voice');
  await w.exec({ type: 'OPEN' });
  await w.upload(audioResource(31, 'Recorded', 15), 'dhClones.sample');
  await vi.waitFor(() => expect(w.field('dhClones.sample').value).toBe('31'));
  w.dispose();
}, 30_000);
