/**
 * The video task create forms: the mixed-cut form (a drawer of /creation/mixed-task),
 * the clip editor (/creation/mixedshear) and the resource picker both use. Each form is a
 * task-form actor: the draft, the live estimate (debounced after a change of what prices it, the
 * earlier call aborted) and the submission, with the contract's rules (the server's own) as its
 * check. The picker lists the caller's library (the resources API, the library's filters; every
 * type the place takes at first) and hands what was picked to the form that opened it — an event
 * between actors. The subtitles' fonts (the caller's `font` resources) load again each time the
 * mixed-cut form opens. After a task is
 * added the area shows the notice and tells its listeners (`onTaskAdded`: the task lists).
 * Each form has a preview actor (src/machines/video-tasks/task-preview.ts: the preview call and
 * its polling through the endpoints here), forgotten when its form starts afresh.
 */
import { createActor, fromPromise } from 'xstate';
import type { z } from 'zod';
import type { GroupListReply, Resource } from '../../api/contract/resources';
import { clipTaskBody, mixedTaskBody, type VideoTaskKind } from '../../api/contract/video-tasks';
import * as resourcesApi from '../../api/resources';
import * as dhVideosApi from '../../api/digital-human-videos';
import type { VoiceClone } from '../../api/contract/digital-human';
import * as videoTasksApi from '../../api/video-tasks';
import { resourcePickerMachine, type PickerSlot } from '../../machines/resource-picker';
import { taskPreviewMachine } from '../../machines/video-tasks/task-preview';
import { clipBody, createClipEditorMachine, type ClipDraft } from '../../machines/clip-editor';
import {
  createMixedTaskFormMachine,
  mixedBody,
  type MixedDraft,
} from '../../machines/mixed-task-form';
import {
  nextKey,
  type CheckedDraft,
  type CommonDraft,
  type Picked,
  type StickerDraft,
  type TaskFormMachine,
} from '../../machines/task-form';
import { defineArea, lazyActors } from './areas';
import { balanceNewsArea } from './balance-news';
import { listActor, loadActor, toast, whenChanged } from './factories';
import {
  pickerFilters,
  RESOURCE_PAGE_SIZE,
  resourceQuery,
  wirePicker,
  type ResourceFilters,
} from './resources';
import { videoTasksArea } from './video-tasks';

export interface VideoTaskFormsEndpoints {
  estimateVideoTask: typeof videoTasksApi.estimateVideoTask;
  addVideoTask: typeof videoTasksApi.addVideoTask;
  getResources: typeof resourcesApi.getResources;
  getGroups: typeof resourcesApi.getGroups;
  getReadyVoices: typeof dhVideosApi.getReadyVoices;
  previewVideoTask: typeof videoTasksApi.previewVideoTask;
  getVideoPreview: typeof videoTasksApi.getVideoPreview;
}

/** The narration's voices: ready clones of the caller's, then the public ones (up to 100 each). */
const VOICE_LIMIT = 100;

/** The estimate prices a draft whatever its name: a stand-in while the name is empty. */
const PRICE_NAME = 'estimate';

/** First message id per field path (`count`, `shot_groups.0.duration`, `titles.1.text`). */
function pathErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[issue.path.join('.') || '_form'] ??= issue.message;
  return out;
}

function checker<D, B>(schema: z.ZodType, bodyOf: (draft: D, name?: string) => B) {
  return (draft: D): CheckedDraft<B> => {
    const body = bodyOf(draft);
    const parsed = schema.safeParse(body);
    const priced = bodyOf(draft, PRICE_NAME);
    return {
      body: parsed.success ? body : null,
      errors: parsed.success ? {} : pathErrors(parsed.error),
      estimate: schema.safeParse(priced).success ? priced : null,
    };
  };
}

/** The contract's rules over a draft: the body, the messages by field path, what is priced. */
export const checkMixedDraft = checker(mixedTaskBody, mixedBody);
export const checkClipDraft = checker(clipTaskBody, clipBody);

export const mixedTaskFormMachine = createMixedTaskFormMachine(checkMixedDraft);
export const clipEditorMachine = createClipEditorMachine(checkClipDraft);

/** Where a sticker lands first: the top-left corner, a fifth of the frame wide. */
const STICKER_PLACE = { x: '0.05', y: '0.05', width: '0.2' };

/** The subtitle fonts offered: the caller's `font` resources, newest first (up to 100). */
const FONT_LIMIT = 100;

/** The picked stickers as the form's: one already placed keeps its place, a new one gets one. */
function stickersOf(draft: CommonDraft, picks: readonly Picked[]): StickerDraft[] {
  return picks.map(
    (resource, i) =>
      draft.stickers.find((s) => s.resource.id === resource.id) ?? {
        key: nextKey(draft.stickers) + i,
        resource,
        ...STICKER_PLACE,
      },
  );
}

function createVideoTaskFormActors(e: VideoTaskFormsEndpoints) {
  const listeners = new Set<(kind: VideoTaskKind, id: number) => void>();
  const taskForm = <D, B>(machine: TaskFormMachine<D, B>) =>
    createActor(
      machine.provide({
        actors: {
          estimate: fromPromise(({ input, signal }) =>
            e.estimateVideoTask(input.body as never, { signal }),
          ),
          submit: fromPromise(({ input }) => e.addVideoTask(input.body as never)),
        },
      }),
    );
  // A form's preview: asked and followed quietly (the form's preview panel shows what fails).
  const preview = () =>
    createActor(
      taskPreviewMachine.provide({
        actors: {
          start: fromPromise(({ input, signal }) =>
            e.previewVideoTask(input.body, { signal, quiet: true }),
          ),
          check: fromPromise(({ input, signal }) =>
            e.getVideoPreview(input.id, { signal, quiet: true }),
          ),
        },
      }),
    );
  const actors = lazyActors(
    {
      mixed: () => taskForm(mixedTaskFormMachine),
      clip: () => taskForm(clipEditorMachine),
      mixedPreview: preview,
      clipPreview: preview,
      picker: () => createActor(resourcePickerMachine),
      voices: () =>
        loadActor<VoiceClone[]>('taskVoices', async (signal) => {
          const [mine, pub] = await Promise.all([
            e.getReadyVoices({ scope: 'mine', page: 1, limit: VOICE_LIMIT }, { signal }),
            e.getReadyVoices({ scope: 'public', page: 1, limit: VOICE_LIMIT }, { signal }),
          ]);
          return [...mine.list, ...pub.list];
        }),
      /** The subtitles' font choices (loaded again each time the mixed-cut form opens). */
      fonts: () =>
        loadActor<Resource[]>('taskFonts', async (signal) => {
          const page = await e.getResources(
            { type: 'font', page: 1, limit: FONT_LIMIT },
            { signal },
          );
          return page.list;
        }),
      pickerResources: () =>
        listActor<ResourceFilters, Resource>(
          'pickerResources',
          ({ filters, page, limit }, signal) =>
            e.getResources({ ...resourceQuery(filters), page, limit }, { signal }),
          pickerFilters(['video']),
          RESOURCE_PAGE_SIZE,
        ),
      /** The library's groups, for the picker's group filter (loaded again at each OPEN). */
      pickerGroups: () =>
        loadActor<GroupListReply>('pickerGroups', (signal) => e.getGroups({ signal })),
    },
    (made, started) => {
      const added = (kind: VideoTaskKind, id: number | undefined) => {
        toast('success', 'taskForm.added');
        if (id !== undefined) listeners.forEach((listener) => listener(kind, id));
      };
      /** The picked resources into the form that opened the picker. */
      const hand = (slot: PickerSlot, picks: Picked[]) => {
        if (slot.form === 'mixed') {
          const draft = made.mixed.getSnapshot().context.draft;
          const patch: Partial<MixedDraft> =
            slot.part === 'group'
              ? {
                  groups: draft.groups.map((g) =>
                    g.key === slot.key ? { ...g, shots: picks } : g,
                  ),
                }
              : slot.part === 'music'
                ? { music: picks }
                : slot.part === 'sticker'
                  ? { stickers: stickersOf(draft, picks) }
                  : { [slot.part]: picks[0] ?? null };
          made.mixed.send({ type: 'EDIT', patch });
          return;
        }
        const draft = made.clip.getSnapshot().context.draft;
        const patch: Partial<ClipDraft> =
          slot.part === 'video'
            ? {
                video: picks[0] ?? null,
                start: '0',
                end: picks[0]?.duration ? String(picks[0].duration) : '',
              }
            : slot.part === 'music'
              ? { music: picks }
              : { stickers: stickersOf(draft, picks) };
        made.clip.send({ type: 'EDIT', patch });
      };
      return {
        mixed: (mixed) => [
          whenChanged(
            mixed,
            (s) => s.context.completed,
            () => added('mixed', mixed.getSnapshot().context.result?.id),
          ),
          // A font uploaded since the form was last open is offered.
          whenChanged(
            mixed,
            (s) => !s.matches('closed'),
            () => started('fonts')?.send({ type: 'RELOAD' }),
          ),
          // The drawer closed (added, discarded, cancelled): its preview goes with the draft.
          whenChanged(
            mixed,
            (s) => s.matches('closed'),
            () => started('mixedPreview')?.send({ type: 'CLEAR' }),
          ),
        ],
        clip: (clip) => [
          whenChanged(
            clip,
            (s) => s.context.completed,
            () => added('clip', clip.getSnapshot().context.result?.id),
          ),
          // The page's form starts afresh (added, or cancelled): so does its preview.
          whenChanged(
            clip,
            (s) => s.context.completed + s.context.cancelled,
            () => started('clipPreview')?.send({ type: 'CLEAR' }),
          ),
        ],
        picker: (picker) =>
          wirePicker(picker, made.pickerResources, hand, () =>
            made.pickerGroups.send({ type: 'RELOAD' }),
          ),
      };
    },
  );
  const stopActors = actors.stop;
  return Object.assign(actors, {
    /**
     * INTEGRATION POINT (task lists): each task a form added, with its kind and id. The task
     * lists' area subscribes (`areas.get(videoTaskFormsArea).onTaskAdded(…)`) to reload its list
     * and follow the new task's progress; the unsubscribe is returned.
     */
    onTaskAdded(listener: (kind: VideoTaskKind, id: number) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      listeners.clear();
      stopActors();
    },
  });
}

export type VideoTaskFormsActors = ReturnType<typeof createVideoTaskFormActors>;

export const videoTaskFormsArea = defineArea<VideoTaskFormsEndpoints, VideoTaskFormsActors>({
  key: 'videoTaskForms',
  live: () => ({
    estimateVideoTask: videoTasksApi.estimateVideoTask,
    addVideoTask: videoTasksApi.addVideoTask,
    getResources: resourcesApi.getResources,
    getGroups: resourcesApi.getGroups,
    getReadyVoices: dhVideosApi.getReadyVoices,
    previewVideoTask: videoTasksApi.previewVideoTask,
    getVideoPreview: videoTasksApi.getVideoPreview,
  }),
  create: (endpoints, areas) => {
    const forms = createVideoTaskFormActors(endpoints);
    // Each task added: its kind's list reloads and its drawer opens (the task lists' area).
    forms.onTaskAdded((kind, id) => areas.get(videoTasksArea).taskAdded(kind, id));
    // Its price was frozen: the balances shown reload.
    forms.onTaskAdded(() => areas.get(balanceNewsArea).moved());
    return forms;
  },
});
