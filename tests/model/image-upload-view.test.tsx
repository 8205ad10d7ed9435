/**
 * The image-upload machine (src/machines/image-upload.ts) through the domain form's logo field on
 * the real /domain/domainList page over the real domains area, its upload call a fake: the
 * machine's shortest paths (and two written out: a finished upload, a reopened form) only propose
 * event sequences; each step is choosing a file, the fake `uploadPlatformImage` call settling or
 * the form closed and opened again, and the state after it comes from the hand-written table
 * below, asserted on screen (the field's status, the preview, the Remove button). A file the
 * purpose does not take is never sent.
 */
import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, vi } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import type { PlatformImage } from '../../src/api/contract/platform-images';
import type { RequestOptions } from '../../src/api/http';
import { imageUploadMachine } from '../../src/machines/image-upload';
import { domainsWorld, text } from './domains-world';
import { replyError } from './fixtures';
import { settle, uiPaths, viewPathHooks } from './ui-paths';

const LOGO: PlatformImage = {
  url: '/api/v1/images/0123456789abcdef0123456789abcdef.png',
  purpose: 'logo',
  content_type: 'image/png',
  size: 68,
  width: 64,
  height: 64,
};
const REFUSED = 'The file’s content does not match its extension .png';
const FIELD = text('domains.logo');

// ---------------------------------------------------------------------------------------------
// The oracle, written from the field's rules: a PNG is sent at once and shows once uploaded; an
// SVG is refused at the field, never sent; the server's refusal is said at the field; closing
// the form (and opening it again) stops the upload and forgets what went wrong.

const TRANSITIONS: Record<string, string> = {
  'none PICK good': 'sending',
  'none PICK bad': 'refused',
  'sending done upload': 'shown',
  'sending error upload': 'failed',
  'sending RESET': 'none',
  'refused PICK good': 'sending',
  'refused RESET': 'none',
  'failed PICK good': 'sending',
  'failed PICK bad': 'refused',
  'failed RESET': 'none',
  'shown RESET': 'none',
};

/** Only a file the purpose takes is sent. */
const EFFECTS: Record<string, string[]> = {
  'none PICK good': ['upload logo.png'],
  'refused PICK good': ['upload logo.png'],
  'failed PICK good': ['upload logo.png'],
};

type PathEvent = { type: string; file?: { name: string } };

const label = (event: PathEvent) => {
  if (event.type === 'PICK') return event.file?.name.endsWith('.png') ? 'PICK good' : 'PICK bad';
  return event.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');
};

const GOOD = { name: 'logo.png', size: 68 };
const BAD = { name: 'logo.svg', size: 40 };

// ---------------------------------------------------------------------------------------------

function setup() {
  const world = domainsWorld();
  const anyFile = userEvent.setup({
    advanceTimers: vi.advanceTimersByTime,
    delay: null,
    applyAccept: false,
  });
  const sent: string[] = [];
  const input = () =>
    world.dialog()!.getByLabelText(text('imageField.choose', { field: FIELD })) as HTMLInputElement;
  const open = async () => {
    await world.user.click(world.pageButton(text('domains.add')));
    await settle();
  };
  const calls = () => world.endpoints.calls.filter((c) => c.name === 'uploadPlatformImage');
  /** The calls settled by a step (by their index): one upload at a time, the newest. */
  const settled = new Set<number>();
  let seen = 0;
  const effects = {
    take: () => {
      const now = calls();
      for (const call of now.slice(seen)) {
        const [purpose, file] = call.input as [string, File];
        sent.push(`upload ${file.name}`);
        expect(purpose).toBe('logo');
      }
      seen = now.length;
      return sent.splice(0);
    },
  };

  const exec = async (event: PathEvent) => {
    switch (label(event)) {
      case 'PICK good':
        return world.user.upload(input(), new File([new Uint8Array(68)], 'logo.png'));
      case 'PICK bad':
        // A person may choose "all files" in the file dialog: the field's accept is a hint.
        return anyFile.upload(
          input(),
          new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg'),
        );
      case 'done upload':
        settled.add(calls().length - 1);
        return world.endpoints.settle('uploadPlatformImage', 'done', LOGO);
      case 'error upload':
        settled.add(calls().length - 1);
        return world.endpoints.settle('uploadPlatformImage', 'error', replyError(REFUSED));
      case 'RESET':
        await world.user.click(world.dialog()!.getByRole('button', { name: text('form.close') }));
        await settle();
        return open();
      default:
        throw new Error(`a person cannot cause ${event.type}`);
    }
  };

  const sees = (state: string) => () => {
    const d = world.dialog()!;
    const group = d.getByRole('group', { name: FIELD });
    expect(group.dataset.testid).toBe('domain-logo');
    const field = within(group);
    const busy = state === 'sending';
    expect(group.getAttribute('aria-busy')).toBe(String(busy));
    // The call under way, if any: a reset one was aborted (its request cancelled).
    const live = calls().filter(
      (call, i) =>
        !settled.has(i) && !(call.input as [unknown, unknown, RequestOptions])[2].signal!.aborted,
    );
    expect(live, 'uploads under way').toHaveLength(busy ? 1 : 0);
    const shown = (msg: string) => field.queryByText(msg) !== null;
    expect(shown(text('imageField.uploading', { name: 'logo.png' })), 'uploading').toBe(busy);
    expect(shown(text('imageField.wrongType', { extensions: '.png .jpg .jpeg .webp' }))).toBe(
      state === 'refused',
    );
    expect(shown(REFUSED), 'the server’s refusal').toBe(state === 'failed');
    expect(shown(text('domains.logoHelp')), 'the help').toBe(state === 'none' || state === 'shown');
    // The uploaded logo in the field and in both places of the preview; else the platform's.
    const uploaded = state === 'shown';
    const preview = within(d.getByTestId('brand-preview'));
    for (const image of preview.getAllByRole('img')) {
      expect(image.getAttribute('src')).toBe(uploaded ? LOGO.url : '/logo.svg');
    }
    expect(
      field.queryByRole('img', { name: text('imageField.preview', { field: FIELD }) }) !== null,
    ).toBe(uploaded);
    expect(
      field.queryByRole('button', { name: text('imageField.removeOf', { field: FIELD }) }) !== null,
    ).toBe(uploaded);
    const choose = field.getByRole('button', {
      name: text(uploaded ? 'imageField.replace' : 'imageField.upload', { field: FIELD }),
    }) as HTMLButtonElement;
    expect(choose.disabled, 'one upload at a time').toBe(busy);
  };

  const actual = () => {
    const area = world.area();
    const upload = area.logo.getSnapshot();
    if (upload.hasTag('uploading')) return 'sending';
    const error = upload.context.error;
    if (error) return error.text.startsWith('imageField.') ? 'refused' : 'failed';
    return area.form.getSnapshot().context.values.logo ? 'shown' : 'none';
  };
  return { world, open, exec, sees, actual, effects };
}

viewPathHooks();

describe('the domain form’s logo (an uploaded image)', () => {
  const step = (type: string, file?: { name: string; size: number }) => ({
    event: (file ? { type, file } : { type }) as never,
  });
  uiPaths({
    oracle: { initial: 'none', transitions: TRANSITIONS, label },
    proposed: [
      ...getShortestPaths(imageUploadMachine, {
        input: { purpose: 'logo' },
        events: (s) =>
          (
            [
              { type: 'PICK', file: GOOD },
              { type: 'PICK', file: BAD },
              { type: 'RESET' },
              { type: 'xstate.done.actor.upload', output: LOGO },
              { type: 'xstate.error.actor.upload', error: replyError(REFUSED) },
            ] as never[]
          ).filter((e) => s.can(e)),
        serializeState: (s) => JSON.stringify([s.value, s.context.error?.text ?? null]),
      }),
      // A finished upload and a reopened form lead back to the start: no shortest path takes them.
      {
        steps: [
          step('xstate.init'),
          step('PICK', GOOD),
          step('xstate.done.actor.upload'),
          step('RESET'),
          step('PICK', GOOD),
          step('RESET'),
        ],
      },
    ],
    run: async (_, walk) => {
      const { world, open, exec, sees, actual, effects } = setup();
      await settle();
      await open();
      await walk({
        exec,
        sees: Object.fromEntries(['none', ...Object.values(TRANSITIONS)].map((s) => [s, sees(s)])),
        actual,
        effects: { take: effects.take, expected: EFFECTS },
      });
      world.dispose();
    },
    timeout: 120_000,
  });
});
