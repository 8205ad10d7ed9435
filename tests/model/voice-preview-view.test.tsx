/**
 * The voice preview dialog (src/views/digital-human/sound-clone-page.tsx over the digital-human
 * clones area, voice-preview machine) driven as a merchant would, against a hand-written
 * oracle: the machine's shortest paths only propose event sequences; each step is executed on the
 * rendered page (a ready voice's Listen, typing the text, Speak, Close) or the fake preview call
 * settling, and what the person sees after it comes from TRANSITIONS / `sees` below: the text the
 * dialog opens with, the body the call is asked with, the sample played, the server's refusal, the
 * rule's message for an empty text (no call).
 */
import { act, screen, within } from '@testing-library/react';
import { describe, expect, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { VoicePreviewBody, VoicePreviewReply } from '../../src/api/contract/digital-human';
import { provideArea } from '../../src/app/actors/areas';
import {
  digitalHumanClonesArea,
  type DigitalHumanClonesEndpoints,
} from '../../src/app/actors/digital-human-clones';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import {
  voicePreviewMachine,
  type VoicePreviewSnapshot,
} from '../../src/machines/digital-human/voice-preview';
import SoundClonePage from '../../src/views/digital-human/sound-clone-page';
import { replyError } from './fixtures';
import { READY_VOICE, shopAuth } from './video-task-fixtures';
import { person, uiPaths, viewPathHooks } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const VOICE = READY_VOICE;
const SAMPLE = text('dhClones.previewSample');
const NEW_TEXT = 'Good morning';
const REFUSED = 'The voice service is busy';

// ---------------------------------------------------------------------------------------------
// The oracle, written out by hand: Listen opens the dialog with the sample sentence; Speak asks for it
// (the voice and the trimmed text) and plays the answer; a refusal is shown and Speak asks again;
// an empty text is refused by the rule without a call; a new text after playing asks nothing
// until Speak; Speak while playing asks again; Close at any time.

const TRANSITIONS: Record<string, string> = {
  'closed OPEN': 'editing',
  'editing CLOSE': 'closed',
  'editing SPEAK': 'asking',
  'editing CLEAR': 'empty',
  'empty SPEAK': 'empty, refused',
  'empty, refused NEW': 'edited',
  'edited SPEAK': 'asking new',
  'asking error preview': 'refused',
  'refused SPEAK': 'asking',
  'asking done preview': 'playing',
  'asking new done preview': 'playing new',
  'playing SPEAK': 'asking again',
  'asking again done preview': 'playing again',
  'playing NEW': 'edited after playing',
  'edited after playing SPEAK': 'asking new',
  'playing CLOSE': 'closed',
};

type PathEvent = { type: string; by?: string; text?: string };

const label = (e: PathEvent) =>
  e.by ?? e.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');

/** The proposals: what a person does in a state (few ways in, so the paths stay few). */
function events(s: VoicePreviewSnapshot): PathEvent[] {
  const { text: t, reply, error, invalid, voice } = s.context;
  if (s.matches('closed')) return voice ? [] : [{ type: 'OPEN' }];
  if (s.matches('asking')) {
    const done = { type: 'xstate.done.actor.preview', output: { url: '/x', duration: 1 } };
    const list: PathEvent[] = [done];
    if (!error && !reply && t === SAMPLE) list.push({ type: 'xstate.error.actor.preview' });
    return list;
  }
  const clear = { type: 'TEXT', by: 'CLEAR', text: '' };
  const fresh = { type: 'TEXT', by: 'NEW', text: NEW_TEXT };
  if (s.matches('playing'))
    return t === SAMPLE ? [{ type: 'SPEAK' }, { type: 'CLOSE' }, fresh] : [];
  if (t === '') return invalid ? [fresh] : [{ type: 'SPEAK' }];
  if (error || t === NEW_TEXT) return [{ type: 'SPEAK' }];
  return reply ? [] : [{ type: 'CLOSE' }, { type: 'SPEAK' }, clear];
}

function world() {
  const calls: {
    body: VoicePreviewBody;
    resolve: (v: VoicePreviewReply) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const endpoints: DigitalHumanClonesEndpoints = {
    getImageClones: async () => ({ list: [], total: 0 }),
    addImageClone: async () => ({ id: 1 }),
    deleteImageClones: async () => ({ count: 0 }),
    getVoiceClones: async (query) =>
      query.scope === 'mine' ? { list: [VOICE], total: 1 } : { list: [], total: 0 },
    addVoiceClone: async () => ({ id: 1 }),
    deleteVoiceClones: async () => ({ count: 0 }),
    previewVoice: (body) =>
      new Promise<VoicePreviewReply>((resolve, reject) => calls.push({ body, resolve, reject })),
    getResources: async () => ({ list: [], total: 0 }),
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, digitalHumanClonesArea, endpoints);
  renderAt(actors, <SoundClonePage />, '/digital-human/sound-clone');
  const user = person();
  const dialog = () => {
    const d = screen.queryAllByTestId('voice-preview').filter(isOpen)[0];
    return d ? within(d) : null;
  };
  const shown = () => {
    const d = dialog();
    expect(d, 'the dialog').not.toBeNull();
    return d!;
  };
  const input = () =>
    shown().getByRole('textbox', { name: text('dhClones.previewText') }) as HTMLInputElement;
  // The Speak button (its name goes while it spins: found as the form's submit button).
  const speak = () => {
    const d = screen.queryAllByTestId('voice-preview').filter(isOpen)[0];
    const button = d?.querySelector<HTMLButtonElement>('button[type="submit"]');
    expect(button, 'the Speak button').toBeTruthy();
    return button!;
  };
  const audio = () => shown().queryByTestId('voice-preview-audio');
  const tick = async () => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  };
  const url = (n: number) => `/files/preview-${n}.wav`;

  const exec = async (e: PathEvent) => {
    switch (label(e)) {
      case 'OPEN': {
        const listen = await vi.waitFor(() =>
          screen.getByRole('button', { name: text('dhClones.listenOf', { name: VOICE.name }) }),
        );
        return user.click(listen);
      }
      case 'CLOSE':
        return user.click(shown().getAllByRole('button', { name: text('form.close') })[0]);
      case 'SPEAK':
        return user.click(shown().getByRole('button', { name: text('dhClones.speak') }));
      case 'CLEAR':
        return user.clear(input());
      case 'NEW':
        await user.clear(input());
        return user.type(input(), NEW_TEXT);
      case 'done preview':
        calls[calls.length - 1].resolve({
          url: url(calls.length),
          duration: 2.5,
          demonstration: false,
        });
        return tick();
      case 'error preview':
        calls[calls.length - 1].reject(replyError(REFUSED));
        return tick();
      default:
        throw new Error(`a person cannot cause ${label(e)}`);
    }
  };

  const asked = (n: number, t: string) => {
    expect(calls.length, 'calls made').toBe(n);
    expect(calls[n - 1].body).toEqual({ voice_id: VOICE.id, text: t });
    expect(speak().getAttribute('aria-busy')).toBe('true');
  };
  const playing = (n: number) => {
    expect(audio()?.getAttribute('src')).toBe(url(n));
    expect(speak().getAttribute('aria-busy')).not.toBe('true');
    expect(shown().queryByRole('alert')).toBeNull();
  };
  const rule = () => shown().queryByText(text('validation.previewText'));
  const heading = () =>
    shown().getByRole('heading', { name: text('dhClones.listenTitle', { name: VOICE.name }) });

  const sees: Record<string, () => void | Promise<void>> = {
    closed: async () => {
      expect(dialog()).toBeNull();
      // The page is still there (not an error page in its place).
      await vi.waitFor(() =>
        screen.getByRole('button', { name: text('dhClones.listenOf', { name: VOICE.name }) }),
      );
    },
    editing: () => {
      heading();
      expect(input().value).toBe(SAMPLE);
      expect(audio()).toBeNull();
      expect(rule()).toBeNull();
      expect(calls).toEqual([]);
    },
    empty: () => {
      expect(input().value).toBe('');
      expect(rule()).toBeNull();
      expect(calls).toEqual([]);
    },
    'empty, refused': () => {
      expect(rule()).not.toBeNull();
      expect(calls).toEqual([]);
    },
    edited: () => {
      expect(input().value).toBe(NEW_TEXT);
      expect(rule()).toBeNull();
      expect(calls).toEqual([]);
    },
    asking: () => asked(calls.length, SAMPLE),
    'asking new': () => asked(calls.length, NEW_TEXT),
    'asking again': () => asked(2, SAMPLE),
    refused: () => {
      expect(shown().getByRole('alert').textContent).toContain(REFUSED);
      expect(input().value).toBe(SAMPLE);
      expect(audio()).toBeNull();
      expect(calls.length).toBe(1);
    },
    playing: () => playing(calls.length),
    'playing new': () => playing(calls.length),
    'playing again': () => playing(2),
    'edited after playing': () => {
      expect(input().value).toBe(NEW_TEXT);
      // No call until Speak; the last sample stays on show.
      expect(calls.length).toBe(1);
      expect(speak().getAttribute('aria-busy')).not.toBe('true');
    },
  };
  return { exec, sees, dispose: () => actors.dispose() };
}

viewPathHooks();

describe('the voice preview dialog', () => {
  uiPaths({
    oracle: { initial: 'closed', transitions: TRANSITIONS, label },
    proposed: getShortestPaths(voicePreviewMachine, {
      events: (s) =>
        events(s).map((e) =>
          e.type === 'OPEN' ? { ...e, voice: VOICE, text: SAMPLE } : e,
        ) as never[],
      serializeState: (s) =>
        JSON.stringify([
          s.value,
          s.context.text,
          s.context.invalid,
          s.context.error,
          s.context.reply?.url ?? null,
          s.context.voice?.id ?? null,
        ]),
    }) as never,
    run: async (_, walk) => {
      const w = world();
      await walk({ exec: w.exec as never, sees: w.sees });
      w.dispose();
    },
    timeout: 30_000,
  });
});
