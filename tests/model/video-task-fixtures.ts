import { createActor, fromPromise } from 'xstate';
import type { VoiceClone } from '../../src/api/contract/digital-human';
import type { Resource } from '../../src/api/contract/resources';
import { authMachine } from '../../src/machines/auth';
import { userFixture } from './fixtures';

/** The creation views' tests' caller: merchant `shop9` (account 9), signed in. */
export function shopAuth() {
  return createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture({ accountId: 9, user_type: 2, username: 'shop9', name: 'Shop' }),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
}

/** A video resource of the caller's, as the library lists it (the video task form tests). */
export const clipResource = (id: number, name: string, duration: number): Resource => ({
  id,
  type: 'video',
  name,
  group_id: null,
  url: `/api/v1/files/${id}?sig=s`,
  cover: `/api/v1/files/${id}-poster?sig=s`,
  content_type: 'video/mp4',
  size: 1024,
  duration,
  width: 1280,
  height: 720,
  codec: 'h264',
  created_at: 0,
});

/** A ready voice clone of `shop9`'s own (the digital-human voice tests). */
export const READY_VOICE: VoiceClone = {
  id: 5,
  owner_id: 9,
  owner_name: 'shop9',
  name: 'My voice',
  gender: 'female',
  scope: 'mine',
  status: 'ready',
  reason: null,
  progress: 100,
  queue_position: null,
  audio_id: null,
  demo_url: '/files/voice-5.wav',
  demonstration: true,
  cost: 0,
  refunded: 0,
  created_at: 0,
  finished_at: 1,
};
