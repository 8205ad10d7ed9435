/**
 * The digital-human videos area: the video list of /digital-human/digital-video
 * (filters status, folder and keyword; pages), the finished works of /digital-human/my-creation
 * (done videos by folder), the open video (the player dialog: detail with signed URLs), the
 * actions (rename, delete, resubmit: the dialog machine), the live queue position and progress
 * (the watch), and the create form of /digital-human/create-video with what it picks from (ready
 * avatars, ready voices mine and public, the voice preview, folders, music through the resource
 * picker; the templates are the templates area's, ./digital-human-templates.ts).
 *
 * The area, not a view, owns the watch: it lives as long as the area (until the signed-in user
 * changes), so leaving the page for another tab neither restarts nor loses it. It checks every
 * 2 s while any video on show (the list's rows, the open video) is queued or creating, stops
 * when none is, and waits longer after failed checks; rows show as the watch last knew them.
 */
import { createActor, fromPromise } from 'xstate';
import type { z } from 'zod';
import {
  dhVideoBody as dhVideoSchema,
  type DhAddReply,
  type DhDeleteReply,
  type DhIdBody,
  type DhVideo,
  type DhVideoBody,
  type DhVideoDeleteBody,
  type DhVideoDetail,
  type DhVideoListParams,
  type DhVideoRenameBody,
  type DhVideoStatus,
  type ImageClone,
  type VoiceClone,
} from '../../api/contract/digital-human';
import type { GroupListReply, Resource } from '../../api/contract/resources';
import * as api from '../../api/digital-human-videos';
import { newIdempotencyKey } from '../../api/money';
import * as resourcesApi from '../../api/resources';
import { currentIntl, formatText } from '../../i18n/intl';
import {
  dhVideoDetailMachine,
  dhVideoWatchMachine,
  isDhActive,
} from '../../machines/digital-human/videos';
import {
  createDhVideoFormMachine,
  dhVideoBody,
  freshDhVideoDraft,
  nameStamp,
  type DhVideoDraft,
} from '../../machines/digital-human/video-form';
import { voiceSampleMachine } from '../../machines/digital-human/voice-sample';
import { resourcePickerMachine } from '../../machines/resource-picker';
import type { CheckedDraft } from '../../machines/task-form';
import type { CheckOutput } from '../../machines/video-tasks/task-watch';
import { defineArea, lazyActors } from './areas';
import { balanceNewsArea, whenFinished, type BalanceNews } from './balance-news';
import {
  dialogActor,
  listActor,
  loadActor,
  toast,
  whenChanged,
  type DialogActor,
  type ListActor,
} from './factories';
import { wirePicker, RESOURCE_PAGE_SIZE, resourceQuery, type ResourceFilters } from './resources';

export interface DhVideosEndpoints {
  getDhVideos: typeof api.getDhVideos;
  getDhVideo: typeof api.getDhVideo;
  renameDhVideo: typeof api.renameDhVideo;
  deleteDhVideos: typeof api.deleteDhVideos;
  resubmitDhVideo: typeof api.resubmitDhVideo;
  estimateDhVideo: typeof api.estimateDhVideo;
  addDhVideo: typeof api.addDhVideo;
  getReadyAvatars: typeof api.getReadyAvatars;
  getReadyVoices: typeof api.getReadyVoices;
  previewVoice: typeof api.previewVoice;
  getGroups: typeof resourcesApi.getGroups;
  getResources: typeof resourcesApi.getResources;
  newIdempotencyKey: () => string;
}

export interface DhVideoFilters {
  /** '' all. */
  status: DhVideoStatus | '';
  /** null: every folder. */
  folder: number | null;
  keyword: string;
}
export const NO_DH_VIDEO_FILTERS: DhVideoFilters = { status: '', folder: null, keyword: '' };

/** Videos per page of the list; works per page of the gallery. */
export const DH_VIDEO_PAGE_SIZE = 10;
export const GALLERY_PAGE_SIZE = 12;
/** The pickers show up to this many avatars and voices of each scope (the API's largest page). */
const PICK_LIMIT = 100;

/** The list call's query of the page's filters. */
export function dhVideoQuery(f: DhVideoFilters): Partial<DhVideoListParams> {
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.folder !== null ? { folder_id: f.folder } : {}),
    ...(f.keyword.trim() ? { keyword: f.keyword.trim() } : {}),
  };
}

/** Delete: a video not queued or creating (the server refuses those). */
export const canDeleteDhVideo = (v: DhVideo) => !isDhActive(v.status);
/** Resubmit: a finished video (done or failed): a new video with the same body. */
export const canResubmitDhVideo = (v: DhVideo) => !isDhActive(v.status);

/** The estimate prices a draft whatever its name: a stand-in while the name is empty. */
const PRICE_NAME = 'estimate';

function pathErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[issue.path.join('.') || '_form'] ??= issue.message;
  return out;
}

/** The contract's rules over a draft: the body, the messages by field, what is priced. */
export function checkDhVideoDraft(draft: DhVideoDraft): CheckedDraft<DhVideoBody> {
  const body = dhVideoBody(draft);
  const parsed = dhVideoSchema.safeParse(body);
  const priced = dhVideoBody(draft, PRICE_NAME);
  return {
    body: parsed.success ? body : null,
    errors: parsed.success ? {} : pathErrors(parsed.error),
    estimate: dhVideoSchema.safeParse(priced).success ? priced : null,
  };
}

/** The default name `数字人_YYYYMMDD HHmm` (in the person's language) of local time now. */
export const defaultDhVideoName = (at = new Date()) =>
  formatText(currentIntl(), 'dhVideoForm.defaultName', { stamp: nameStamp(at) });

/** What the form picks from: ready avatars, ready voices (mine, then public). */
export interface DhVoices {
  mine: VoiceClone[];
  public: VoiceClone[];
}

function createDhVideoActors(e: DhVideosEndpoints, news: Pick<BalanceNews, 'moved'>) {
  const formMachine = createDhVideoFormMachine({
    check: checkDhVideoDraft,
    fresh: () => freshDhVideoDraft(defaultDhVideoName()),
    newKey: e.newIdempotencyKey,
  });
  /** The watch's check, set once the actors are wired (it reads what is on show). */
  let check: (signal: AbortSignal) => Promise<CheckOutput<DhVideo, DhVideoDetail>> = () =>
    Promise.resolve({ tasks: [], details: [] });

  const actors = lazyActors(
    {
      videos: () =>
        listActor<DhVideoFilters, DhVideo>(
          'dhVideos',
          ({ filters, page, limit }, signal) =>
            e.getDhVideos({ ...dhVideoQuery(filters), page, limit }, { signal }),
          NO_DH_VIDEO_FILTERS,
          DH_VIDEO_PAGE_SIZE,
        ),
      /** My creations: the done videos, by folder. */
      gallery: () =>
        listActor<DhVideoFilters, DhVideo>(
          'dhGallery',
          ({ filters, page, limit }, signal) =>
            e.getDhVideos(
              { ...dhVideoQuery({ ...filters, status: 'done' }), page, limit },
              { signal },
            ),
          { ...NO_DH_VIDEO_FILTERS, status: 'done' },
          GALLERY_PAGE_SIZE,
        ),
      detail: () =>
        createActor(
          dhVideoDetailMachine.provide({
            actors: { load: fromPromise(({ input, signal }) => e.getDhVideo(input, { signal })) },
          }),
        ),
      watch: () =>
        createActor(
          dhVideoWatchMachine.provide({
            actors: { check: fromPromise(({ signal }) => check(signal)) },
          }),
        ),
      rename: () =>
        dialogActor<DhVideo, DhVideoRenameBody, DhVideo>('dhVideoRename', (_v, body) =>
          e.renameDhVideo(body),
        ),
      remove: () =>
        dialogActor<DhVideo, DhVideoDeleteBody, DhDeleteReply>('dhVideoDelete', (_v, body) =>
          e.deleteDhVideos(body),
        ),
      resubmit: () =>
        dialogActor<DhVideo, DhIdBody, DhAddReply>('dhVideoResubmit', (_v, body) =>
          e.resubmitDhVideo(Number(body.id)),
        ),
      form: () =>
        createActor(
          formMachine.provide({
            actors: {
              estimate: fromPromise(({ input, signal }) =>
                e.estimateDhVideo(input.body, { signal }),
              ),
              submit: fromPromise(({ input }) => e.addDhVideo(input.body, input.key)),
            },
          }),
        ),
      avatars: () =>
        loadActor<ImageClone[]>('dhAvatars', (signal) =>
          e.getReadyAvatars({ page: 1, limit: PICK_LIMIT }, { signal }).then((r) => r.list),
        ),
      voices: () =>
        loadActor<DhVoices>('dhVoices', async (signal) => {
          const [mine, pub] = await Promise.all([
            e.getReadyVoices({ scope: 'mine', page: 1, limit: PICK_LIMIT }, { signal }),
            e.getReadyVoices({ scope: 'public', page: 1, limit: PICK_LIMIT }, { signal }),
          ]);
          return { mine: mine.list, public: pub.list };
        }),
      folders: () => loadActor<GroupListReply>('dhFolders', (signal) => e.getGroups({ signal })),
      preview: () =>
        createActor(
          voiceSampleMachine.provide({
            actors: {
              preview: fromPromise(({ input, signal }) =>
                e.previewVoice({ voice_id: input.voiceId, text: input.text }, { signal }),
              ),
            },
          }),
        ),
      picker: () => createActor(resourcePickerMachine),
      pickerResources: () =>
        listActor<ResourceFilters, Resource>(
          'dhPickerResources',
          ({ filters, page, limit }, signal) =>
            e.getResources({ ...resourceQuery(filters), page, limit }, { signal }),
          { type: 'bgm', keyword: '', group: 'all' },
          RESOURCE_PAGE_SIZE,
        ),
    },
    (all, started) => {
      /** A video as the watch last knew it (a row loaded earlier may be behind). */
      const known = (v: DhVideo) => started('watch')?.getSnapshot().context.tasks[v.id] ?? v;
      const activeRows = () => {
        const s = started('videos')?.getSnapshot();
        return s && s.context.rows.some((r) => isDhActive(known(r).status)) ? s : null;
      };
      const activeDetail = () => {
        const s = started('detail')?.getSnapshot();
        const data = s?.matches('ready') ? s.context.data : null;
        return data && isDhActive(known(data).status) ? data : null;
      };
      const recompute = () => {
        const active = activeRows() !== null || activeDetail() !== null;
        const watch = all.watch;
        if (watch.getSnapshot().context.active !== active) watch.send({ type: 'ACTIVE', active });
      };
      check = async (signal) => {
        const rows = activeRows();
        const data = activeDetail();
        const [page, detail] = await Promise.all([
          rows
            ? e
                .getDhVideos(
                  {
                    ...dhVideoQuery(rows.context.query.filters),
                    page: rows.context.query.page,
                    limit: rows.context.query.limit,
                  },
                  { signal, quiet: true },
                )
                .then((r) => r.list)
            : Promise.resolve([]),
          data ? e.getDhVideo(data.id, { signal, quiet: true }) : Promise.resolve(null),
        ]);
        const details = detail ? [detail] : [];
        return { tasks: [...page, ...details], details };
      };
      const followList = (actor: ListActor<DhVideoFilters, DhVideo>) => {
        let rows: DhVideo[] | null = null;
        return [
          actor.subscribe((s) => {
            if (!s.matches('ready') || s.context.rows === rows) return;
            rows = s.context.rows;
            all.watch.send({ type: 'SEEN', tasks: rows });
            recompute();
          }),
        ];
      };
      const reloadLists = () => {
        started('videos')?.send({ type: 'RELOAD' });
        started('gallery')?.send({ type: 'RELOAD' });
      };
      const afterDone = <P, R>(
        actor: DialogActor<DhVideo, P, R>,
        then: (video: DhVideo, result: R | null) => void,
      ) => [
        whenChanged(
          actor,
          (s) => s.context.completed,
          () => {
            const { target, result } = actor.getSnapshot().context;
            if (target) then(target, result);
          },
        ),
      ];
      const openDetail = () => started('detail');
      return {
        videos: followList,
        detail: (detail) => {
          let data: DhVideoDetail | null = null;
          let value: unknown = null;
          return [
            detail.subscribe((s) => {
              if (s.context.data === data && s.value === value) return;
              const fresh = s.context.data !== data;
              data = s.context.data;
              value = s.value;
              if (fresh && data) all.watch.send({ type: 'SEEN', tasks: [data] });
              recompute();
            }),
          ];
        },
        watch: (watch) => [
          watch.subscribe(() => recompute()),
          watch.on('detail', ({ detail: d }) =>
            started('detail')?.send({ type: 'REFRESHED', detail: d }),
          ),
          // A video finished while watched: the gallery of finished works shows it.
          whenChanged(
            watch,
            (s) =>
              Object.values(s.context.tasks)
                .filter((v) => v.status === 'done')
                .map((v) => v.id)
                .join(','),
            () => started('gallery')?.send({ type: 'RELOAD' }),
          ),
          // A video finished: its seconds settled, the unused (or all, failed) refunded.
          whenFinished(
            watch,
            (s) => Object.values(s.context.tasks),
            (v) => isDhActive(v.status),
            news.moved,
          ),
        ],
        rename: (rename) =>
          afterDone(rename, (video) => {
            toast('success', 'dhVideos.renamed');
            reloadLists();
            const open = openDetail();
            if (open?.getSnapshot().context.id === video.id) open.send({ type: 'RELOAD' });
          }),
        remove: (remove) =>
          afterDone(remove, (video) => {
            toast('success', 'dhVideos.deleted', { name: video.name });
            reloadLists();
            const open = openDetail();
            if (open?.getSnapshot().context.id === video.id) open.send({ type: 'CLOSE' });
          }),
        resubmit: (resubmit) =>
          afterDone(resubmit, () => {
            toast('success', 'dhVideos.resubmitted');
            reloadLists();
            news.moved();
          }),
        form: (form) => [
          whenChanged(
            form,
            (s) => s.context.completed,
            () => {
              toast('success', 'dhVideoForm.added');
              started('videos')?.send({ type: 'RELOAD' });
              started('preview')?.send({ type: 'STOP' });
              news.moved();
            },
          ),
        ],
        picker: (picker) =>
          wirePicker(picker, all.pickerResources, (slot, picked) => {
            if (slot.form === 'dhVideo')
              all.form.send({ type: 'EDIT', patch: { music: picked[0] ?? null } });
          }),
      };
    },
  );
  return actors;
}

export type DhVideosActors = ReturnType<typeof createDhVideoActors>;

export const dhVideosArea = defineArea<DhVideosEndpoints, DhVideosActors>({
  key: 'dhVideos',
  live: () => ({
    getDhVideos: api.getDhVideos,
    getDhVideo: api.getDhVideo,
    renameDhVideo: api.renameDhVideo,
    deleteDhVideos: api.deleteDhVideos,
    resubmitDhVideo: api.resubmitDhVideo,
    estimateDhVideo: api.estimateDhVideo,
    addDhVideo: api.addDhVideo,
    getReadyAvatars: api.getReadyAvatars,
    getReadyVoices: api.getReadyVoices,
    previewVoice: api.previewVoice,
    getGroups: resourcesApi.getGroups,
    getResources: resourcesApi.getResources,
    newIdempotencyKey,
  }),
  create: (endpoints, areas) => createDhVideoActors(endpoints, areas.get(balanceNewsArea)),
});
