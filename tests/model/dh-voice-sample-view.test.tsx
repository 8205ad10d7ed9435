/**
 * The voice sample of the digital-human video form (create-video-page.tsx's voice picker over the
 * dh videos area, voice-sample machine), with hand-written expectations: once a voice is
 * chosen, "Preview with my text" asks for that voice and the sample sentence (the text is empty),
 * the answer plays; a second preview that the server refuses shows its sentence and no sample.
 */
import { act, screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { VoicePreviewBody, VoicePreviewReply } from '../../src/api/contract/digital-human';
import { provideArea } from '../../src/app/actors/areas';
import { dhVideosArea, type DhVideosEndpoints } from '../../src/app/actors/digital-human-videos';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import CreateVideoPage from '../../src/views/digital-human/create-video-page';
import { dhTemplatesArea } from '../../src/app/actors/digital-human-templates';
import { templatesEndpoints } from './dh-template-fixtures';
import { replyError } from './fixtures';
import { READY_VOICE, shopAuth } from './video-task-fixtures';
import { person, viewPathHooks } from './ui-paths';
import { appActors, renderAt } from './view-harness';

const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

const MY_VOICE = READY_VOICE;
const REFUSED = 'The voice service is busy';

viewPathHooks();

test('Preview asks for the chosen voice and the sample sentence and plays it; a refusal is shown', async () => {
  const calls: {
    body: VoicePreviewBody;
    resolve: (v: VoicePreviewReply) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const never = () => new Promise<never>(() => {});
  const endpoints: DhVideosEndpoints = {
    getDhVideos: async () => ({ list: [], total: 0 }),
    getDhVideo: never,
    renameDhVideo: never,
    deleteDhVideos: never,
    resubmitDhVideo: never,
    estimateDhVideo: never,
    addDhVideo: never,
    getReadyAvatars: async () => ({ list: [], total: 0 }),
    getReadyVoices: async (q) =>
      q.scope === 'mine' ? { list: [MY_VOICE], total: 1 } : { list: [], total: 0 },
    previewVoice: (body) =>
      new Promise<VoicePreviewReply>((resolve, reject) => calls.push({ body, resolve, reject })),
    getGroups: async () => ({ list: [], ungrouped: 0 }),
    getResources: async () => ({ list: [], total: 0 }),
    newIdempotencyKey: () => 'k',
  };
  const actors = appActors({ auth: shopAuth() });
  provideArea(actors, dhVideosArea, endpoints);
  provideArea(actors, dhTemplatesArea, templatesEndpoints([]));
  renderAt(actors, <CreateVideoPage />, '/digital-human/create-video');
  const user = person();
  const tick = async () => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
  };
  const page = () => within(screen.getByRole('region', { name: text('route.createVideo') }));
  const choice = await vi.waitFor(() => {
    const c = page().getByRole('combobox', {
      name: new RegExp(`^${text('dhVideoForm.voiceChoice')}\\s*\\*?$`),
    }) as HTMLSelectElement;
    expect(c.querySelectorAll('option').length).toBeGreaterThan(1);
    return c;
  });
  expect(page().queryByRole('button', { name: text('dhVideoForm.preview') })).toBeNull();
  await user.selectOptions(choice, String(MY_VOICE.id));
  const sample = () => page().queryByTestId('dh-voice-preview');
  const preview = () => page().getByRole('button', { name: text('dhVideoForm.preview') });

  await user.click(preview());
  expect(calls.map((c) => c.body)).toEqual([
    { voice_id: MY_VOICE.id, text: text('dhVideoForm.previewSample') },
  ]);
  expect(sample()).toBeNull();
  calls[0].resolve({ url: '/files/sample-1.wav', duration: 2, demonstration: false });
  await tick();
  await vi.waitFor(() => expect(sample()?.getAttribute('src')).toBe('/files/sample-1.wav'));

  await user.click(preview());
  expect(calls.length).toBe(2);
  // A new preview forgets the last sample.
  expect(sample()).toBeNull();
  calls[1].reject(replyError(REFUSED));
  await tick();
  await vi.waitFor(() => expect(page().getByRole('alert').textContent).toContain(REFUSED));
  expect(sample()).toBeNull();
  actors.dispose();
}, 60_000);
