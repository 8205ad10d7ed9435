/**
 * The digital-human clones area: /digital-human/image-clone and /digital-human/
 * sound-clone. The lists (image clones; the caller's voice clones and the platform's public
 * voices: filters status and keyword, pages), the create dialogs (clone-form machine: the draft,
 * the contract's rules, the submission), the delete confirmations (dialog machine), the voice
 * preview, the caller's video and audio resources the dialogs pick from, and the training watch
 * (clone-watch machine). The area, not a view, owns the watch: it lives as long as the area (until
 * the signed-in user changes), so switching tabs neither restarts nor loses it; it checks every
 * POLL_MS while any clone on show is queued or training and stops when none is. A file uploaded
 * from a dialog (the uploads area's queue, the resource library's uploader) fills the dialog's
 * slot it was uploaded for once it is a resource — an event between areas.
 */
import { createActor, fromPromise, fromTransition } from 'xstate';
import {
  DH_LIMITS,
  imageCloneAddBody,
  voiceCloneAddBody,
  type CloneDeleteBody,
  type CloneStatus,
  type DhAddReply,
  type DhDeleteReply,
  type ImageClone,
  type ImageCloneAddBody,
  type ImageCloneTier,
  type VoiceClone,
  type VoiceCloneAddBody,
  type VoiceGender,
  type VoiceScope,
} from '../../api/contract/digital-human';
import type { Resource, ResourceType } from '../../api/contract/resources';
import * as api from '../../api/digital-human-clones';
import * as resourcesApi from '../../api/resources';
import {
  cloneWatchMachine,
  isTraining,
  type CloneCheck,
} from '../../machines/digital-human/clone-watch';
import { createCloneFormMachine, type CheckedClone } from '../../machines/digital-human/clone-form';
import { voicePreviewMachine } from '../../machines/digital-human/voice-preview';
import { defineArea, lazyActors } from './areas';
import { balanceNewsArea, whenFinished, type BalanceNews } from './balance-news';
import {
  dialogActor,
  listActor,
  toast,
  whenChanged,
  type DialogActor,
  type ListActor,
} from './factories';
import { uploadsArea } from './uploads';

export interface DigitalHumanClonesEndpoints {
  getImageClones: typeof api.getImageClones;
  addImageClone: typeof api.addImageClone;
  deleteImageClones: typeof api.deleteImageClones;
  getVoiceClones: typeof api.getVoiceClones;
  addVoiceClone: typeof api.addVoiceClone;
  deleteVoiceClones: typeof api.deleteVoiceClones;
  previewVoice: typeof api.previewVoice;
  getResources: typeof resourcesApi.getResources;
}

export interface CloneFilters {
  /** '' all. */
  status: CloneStatus | '';
  keyword: string;
}
export const NO_CLONE_FILTERS: CloneFilters = { status: '', keyword: '' };

/** Clones per page. */
export const CLONE_PAGE_SIZE = 10;
/** Resources a dialog offers (the newest of the type). */
export const MEDIA_CHOICES = 100;

export function cloneQuery(f: CloneFilters) {
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.keyword.trim() ? { keyword: f.keyword.trim() } : {}),
  };
}

/** Delete: a clone no longer training (ready or failed). */
export const canDeleteClone = (c: { status: CloneStatus; scope?: VoiceScope }) =>
  (c.status === 'ready' || c.status === 'failed') && c.scope !== 'public';

/** A resource picked into a dialog's slot (what the rules and the dialog show of it). */
export interface PickedMedia {
  id: number;
  name: string;
  duration: number | null;
  size: number;
}
export const pickedMedia = (r: Resource): PickedMedia => ({
  id: r.id,
  name: r.name,
  duration: r.duration,
  size: r.size,
});

export type ImageSlot = 'video' | 'consent';

export interface ImageCloneDraft {
  name: string;
  video: PickedMedia | null;
  consent: PickedMedia | null;
  tier: ImageCloneTier;
  /** The slot a file uploaded from the dialog goes to. */
  uploadFor: ImageSlot;
}

export interface VoiceCloneDraft {
  name: string;
  gender: VoiceGender | '';
  audio: PickedMedia | null;
}

export const freshImageDraft = (): ImageCloneDraft => ({
  name: '',
  video: null,
  consent: null,
  tier: 'standard',
  uploadFor: 'video',
});
export const freshVoiceDraft = (): VoiceCloneDraft => ({ name: '', gender: '', audio: null });

const within = (seconds: number | null, min: number, max: number) =>
  seconds === null || (seconds >= min && seconds <= max);

/** The first message id per field of a contract refusal. */
function fieldErrors(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const out: Record<string, string> = {};
  for (const issue of issues) out[String(issue.path[0] ?? '_form')] ??= issue.message;
  return out;
}

/**
 * The image clone dialog's rules: the contract's (name, tier) and, where the picked resource
 * says, the source video's length and size and the consent video's length (the server checks
 * them again with ffprobe, with the one-take check).
 */
export function checkImageDraft(d: ImageCloneDraft): CheckedClone<ImageCloneAddBody> {
  const body = {
    name: d.name,
    video_id: d.video?.id ?? 0,
    consent_video_id: d.consent?.id ?? 0,
    tier: d.tier,
  };
  const parsed = imageCloneAddBody.safeParse(body);
  const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
  const v = DH_LIMITS.imageCloneVideo;
  const c = DH_LIMITS.consentVideo;
  if (!d.video) errors.video_id = 'dhClones.pickVideo';
  else if (!within(d.video.duration, v.minSeconds, v.maxSeconds) || d.video.size > v.maxBytes)
    errors.video_id = 'dhClones.videoRule';
  if (!d.consent) errors.consent_video_id = 'dhClones.pickConsent';
  else if (d.consent.id === d.video?.id) errors.consent_video_id = 'dhClones.consentSame';
  else if (!within(d.consent.duration, c.minSeconds, c.maxSeconds))
    errors.consent_video_id = 'dhClones.consentRule';
  const ok = Object.keys(errors).length === 0;
  return { body: ok ? body : null, errors };
}

/** The voice clone dialog's rules: the contract's and the sample's 10–30 s and 20 MB. */
export function checkVoiceDraft(d: VoiceCloneDraft): CheckedClone<VoiceCloneAddBody> {
  const body = { name: d.name, gender: d.gender as VoiceGender, audio_id: d.audio?.id ?? 0 };
  const parsed = voiceCloneAddBody.safeParse(body);
  const errors = parsed.success ? {} : fieldErrors(parsed.error.issues);
  const s = DH_LIMITS.voiceSample;
  if (!d.audio) errors.audio_id = 'dhClones.pickAudio';
  else if (!within(d.audio.duration, s.minSeconds, s.maxSeconds) || d.audio.size > s.maxBytes)
    errors.audio_id = 'dhClones.audioRule';
  const ok = Object.keys(errors).length === 0;
  return { body: ok ? body : null, errors };
}

export const imageCloneFormMachine = createCloneFormMachine<
  ImageCloneDraft,
  ImageCloneAddBody,
  DhAddReply
>('imageCloneForm', { fresh: freshImageDraft, check: checkImageDraft });
export const voiceCloneFormMachine = createCloneFormMachine<
  VoiceCloneDraft,
  VoiceCloneAddBody,
  DhAddReply
>('voiceCloneForm', { fresh: freshVoiceDraft, check: checkVoiceDraft });

export type ImagePreviewEvent = { type: 'OPEN'; clone: ImageClone } | { type: 'CLOSE' };

type Uploads = Pick<ReturnType<typeof uploadsArea.create>, 'onResourceAdded'>;

function createCloneActors(
  e: DigitalHumanClonesEndpoints,
  uploads: Uploads,
  news: Pick<BalanceNews, 'moved'>,
) {
  const media = (id: string, type: ResourceType) => () =>
    listActor<{ type: ResourceType }, Resource>(
      id,
      ({ filters, page, limit }, signal) =>
        e.getResources({ type: filters.type, page, limit }, { signal }),
      { type },
      MEDIA_CHOICES,
    );
  let check: (signal: AbortSignal) => Promise<CloneCheck> = () =>
    Promise.resolve({ images: [], voices: [] });
  let resourceAdded: (resource: Resource) => void = () => {};

  const actors = lazyActors(
    {
      images: () =>
        listActor<CloneFilters, ImageClone>(
          'imageClones',
          ({ filters, page, limit }, signal) =>
            e.getImageClones({ ...cloneQuery(filters), page, limit }, { signal }),
          NO_CLONE_FILTERS,
          CLONE_PAGE_SIZE,
        ),
      voices: () =>
        listActor<CloneFilters, VoiceClone>(
          'voiceClones',
          ({ filters, page, limit }, signal) =>
            e.getVoiceClones({ scope: 'mine', ...cloneQuery(filters), page, limit }, { signal }),
          NO_CLONE_FILTERS,
          CLONE_PAGE_SIZE,
        ),
      publicVoices: () =>
        listActor<CloneFilters, VoiceClone>(
          'publicVoices',
          ({ filters, page, limit }, signal) =>
            e.getVoiceClones({ scope: 'public', ...cloneQuery(filters), page, limit }, { signal }),
          NO_CLONE_FILTERS,
          CLONE_PAGE_SIZE,
        ),
      videos: media('cloneVideos', 'video'),
      audios: media('cloneAudios', 'audio'),
      imageForm: () =>
        createActor(
          imageCloneFormMachine.provide({
            actors: { submit: fromPromise(({ input }) => e.addImageClone(input.body)) },
          }),
        ),
      voiceForm: () =>
        createActor(
          voiceCloneFormMachine.provide({
            actors: { submit: fromPromise(({ input }) => e.addVoiceClone(input.body)) },
          }),
        ),
      imageRemove: () =>
        dialogActor<ImageClone, CloneDeleteBody, DhDeleteReply>('imageCloneDelete', (_c, body) =>
          e.deleteImageClones(body),
        ),
      voiceRemove: () =>
        dialogActor<VoiceClone, CloneDeleteBody, DhDeleteReply>('voiceCloneDelete', (_c, body) =>
          e.deleteVoiceClones(body),
        ),
      preview: () =>
        createActor(
          voicePreviewMachine.provide({
            actors: { preview: fromPromise(({ input }) => e.previewVoice(input)) },
          }),
        ),
      /** The image clone shown in the preview dialog (poster and loop), or none. */
      imagePreview: () =>
        createActor(
          fromTransition(
            (_: { clone: ImageClone | null }, event: ImagePreviewEvent) => ({
              clone: event.type === 'OPEN' ? event.clone : null,
            }),
            { clone: null as ImageClone | null },
          ),
        ),
      watch: () =>
        createActor(
          cloneWatchMachine.provide({
            actors: { check: fromPromise(({ signal }) => check(signal)) },
          }),
        ),
    },
    (all, started) => {
      const knownImage = (c: ImageClone) =>
        started('watch')?.getSnapshot().context.images[c.id] ?? c;
      const knownVoice = (c: VoiceClone) =>
        started('watch')?.getSnapshot().context.voices[c.id] ?? c;
      const activeImages = () => {
        const s = started('images')?.getSnapshot();
        return s && s.context.rows.some((r) => isTraining(knownImage(r).status)) ? s : null;
      };
      const activeVoices = () => {
        const s = started('voices')?.getSnapshot();
        return s && s.context.rows.some((r) => isTraining(knownVoice(r).status)) ? s : null;
      };
      const recompute = () => {
        const active = activeImages() !== null || activeVoices() !== null;
        if (all.watch.getSnapshot().context.active !== active)
          all.watch.send({ type: 'ACTIVE', active });
      };
      check = async (signal) => {
        const images = activeImages();
        const voices = activeVoices();
        const [imageRows, voiceRows] = await Promise.all([
          images
            ? e
                .getImageClones(
                  {
                    ...cloneQuery(images.context.query.filters),
                    page: images.context.query.page,
                    limit: images.context.query.limit,
                  },
                  { signal, quiet: true },
                )
                .then((r) => r.list)
            : Promise.resolve([]),
          voices
            ? e
                .getVoiceClones(
                  {
                    scope: 'mine',
                    ...cloneQuery(voices.context.query.filters),
                    page: voices.context.query.page,
                    limit: voices.context.query.limit,
                  },
                  { signal, quiet: true },
                )
                .then((r) => r.list)
            : Promise.resolve([]),
        ]);
        return { images: imageRows, voices: voiceRows };
      };
      const follow =
        <R>(key: 'images' | 'voices') =>
        (actor: ListActor<CloneFilters, R>) => {
          let rows: R[] | null = null;
          return [
            actor.subscribe((s) => {
              if (!s.matches('ready') || s.context.rows === rows) return;
              rows = s.context.rows;
              all.watch.send({ type: 'SEEN', [key]: rows });
              recompute();
            }),
          ];
        };
      const added = (form: 'image' | 'voice') => () => {
        toast('success', form === 'image' ? 'dhClones.imageAdded' : 'dhClones.voiceAdded');
        started(form === 'image' ? 'images' : 'voices')?.send({ type: 'RELOAD' });
        news.moved();
      };
      const removed = <C>(
        actor: DialogActor<C, CloneDeleteBody, DhDeleteReply>,
        list: 'images' | 'voices',
      ) => [
        whenChanged(
          actor,
          (s) => s.context.completed,
          () => {
            toast('success', 'dhClones.deleted', {
              count: actor.getSnapshot().context.result?.count ?? 0,
            });
            started(list)?.send({ type: 'RELOAD' });
          },
        ),
      ];
      /** A new resource: the dialogs' choices load again, and an open dialog takes it. */
      resourceAdded = (resource: Resource) => {
        if (resource.type === 'video') {
          started('videos')?.send({ type: 'RELOAD' });
          const form = started('imageForm');
          const s = form?.getSnapshot();
          if (form && s?.matches('editing')) {
            form.send({
              type: 'EDIT',
              patch: { [s.context.draft.uploadFor]: pickedMedia(resource) },
            });
          }
        }
        if (resource.type === 'audio') {
          started('audios')?.send({ type: 'RELOAD' });
          const form = started('voiceForm');
          if (form?.getSnapshot().matches('editing')) {
            form.send({ type: 'EDIT', patch: { audio: pickedMedia(resource) } });
          }
        }
      };
      return {
        images: follow<ImageClone>('images'),
        voices: follow<VoiceClone>('voices'),
        watch: (watch) => [
          watch.subscribe(() => recompute()),
          // A clone finished training: its price settled, or refunded.
          whenFinished(
            watch,
            (s) => Object.values(s.context.images),
            (c) => isTraining(c.status),
            news.moved,
          ),
          whenFinished(
            watch,
            (s) => Object.values(s.context.voices),
            (c) => isTraining(c.status),
            news.moved,
          ),
        ],
        imageForm: (form) => [whenChanged(form, (s) => s.context.completed, added('image'))],
        voiceForm: (form) => [whenChanged(form, (s) => s.context.completed, added('voice'))],
        imageRemove: (remove) => removed(remove, 'images'),
        voiceRemove: (remove) => removed(remove, 'voices'),
      };
    },
  );
  // Uploads go on whichever page is shown: the dialogs hear of each new resource.
  const off = uploads.onResourceAdded((resource) => resourceAdded(resource));
  const stopActors = actors.stop;
  return Object.assign(actors, {
    stop() {
      off();
      stopActors();
    },
  });
}

export type DigitalHumanClonesActors = ReturnType<typeof createCloneActors>;

export const digitalHumanClonesArea = defineArea<
  DigitalHumanClonesEndpoints,
  DigitalHumanClonesActors
>({
  key: 'digitalHumanClones',
  live: () => ({
    getImageClones: api.getImageClones,
    addImageClone: api.addImageClone,
    deleteImageClones: api.deleteImageClones,
    getVoiceClones: api.getVoiceClones,
    addVoiceClone: api.addVoiceClone,
    deleteVoiceClones: api.deleteVoiceClones,
    previewVoice: api.previewVoice,
    getResources: resourcesApi.getResources,
  }),
  create: (endpoints, areas) =>
    createCloneActors(endpoints, areas.get(uploadsArea), areas.get(balanceNewsArea)),
});
