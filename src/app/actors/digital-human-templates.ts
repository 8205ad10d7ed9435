/**
 * The video templates area (docs/domain.md §10 "Video templates"): the page's grid of
 * /digital-human/video-template (filters scope and ratio), every template the caller may use (the
 * create-video form's cards), the template dialog (new or edit: the dialog machine owns its draft,
 * src/app/actors/dh-template-form.ts), delete, "save as template" of a done video (the video
 * list's and the player's), and what the dialog takes files from: the library through the
 * resource picker (own templates) or uploaded platform images (the admin's, the platform's).
 * After any change the grid and the form's cards load again.
 */
import { createActor } from 'xstate';
import {
  dhTemplateFromVideoBody,
  type DhTemplate,
  type DhTemplateAddReply,
  type DhTemplateDeleteBody,
  type DhTemplateDeleteReply,
  type DhTemplateFromVideoBody,
  type DhTemplateList,
  type DhTemplateListQuery,
  type TemplateRatio,
  type TemplateScope,
} from '../../api/contract/dh-templates';
import type { DhVideo } from '../../api/contract/digital-human';
import type { GroupListReply, Resource } from '../../api/contract/resources';
import * as api from '../../api/digital-human-templates';
import { uploadPlatformImage } from '../../api/platform-images';
import * as resourcesApi from '../../api/resources';
import { resourcePickerMachine } from '../../machines/resource-picker';
import { defineArea, lazyActors } from './areas';
import {
  fileOfImage,
  fileOfPicked,
  templateFields,
  type TemplatePayload,
  type TemplateValues,
} from './dh-template-form';
import {
  dialogActor,
  listActor,
  loadActor,
  toast,
  whenChanged,
  type DialogActor,
} from './factories';
import { imageUploadActor, type ImageUploadActor } from './image-uploads';
import { wirePicker, RESOURCE_PAGE_SIZE, resourceQuery, type ResourceFilters } from './resources';
import { textFields } from './small-forms';

export interface DhTemplatesEndpoints {
  getDhTemplates: typeof api.getDhTemplates;
  addDhTemplate: typeof api.addDhTemplate;
  editDhTemplate: typeof api.editDhTemplate;
  deleteDhTemplates: typeof api.deleteDhTemplates;
  addDhTemplateFromVideo: typeof api.addDhTemplateFromVideo;
  getResources: typeof resourcesApi.getResources;
  getGroups: typeof resourcesApi.getGroups;
  uploadPlatformImage: typeof uploadPlatformImage;
}

export interface TemplateFilters {
  /** '' both. */
  scope: TemplateScope | '';
  /** '' every ratio. */
  ratio: TemplateRatio | '';
}
export const NO_TEMPLATE_FILTERS: TemplateFilters = { scope: '', ratio: '' };

/** The list call's query of the page's filters. */
export const templateQuery = (f: TemplateFilters): DhTemplateListQuery => ({
  ...(f.scope ? { scope: f.scope } : {}),
  ...(f.ratio ? { ratio: f.ratio } : {}),
});

/** The file fields of the template dialog that take a picked resource or an uploaded image. */
export type TemplateFileField = 'backgroundImage' | 'cover' | 'demo' | 'music';

/** The largest name a template made from a video starts with (the template names' limit). */
const FROM_VIDEO_NAME = 30;

function createDhTemplateActors(e: DhTemplatesEndpoints) {
  const upload = () =>
    imageUploadActor('content', (purpose, file, signal) =>
      e.uploadPlatformImage(purpose, file as File, { signal }),
    );
  return lazyActors(
    {
      /** The page's grid: every template of the filters (one page: at most the platform's and 50). */
      list: () =>
        listActor<TemplateFilters, DhTemplate>(
          'dhTemplateList',
          ({ filters }, signal) =>
            e
              .getDhTemplates(templateQuery(filters), { signal })
              .then((r) => ({ list: r.list, total: r.list.length })),
          NO_TEMPLATE_FILTERS,
        ),
      /** Every template the caller may use: the create-video form's cards. */
      all: () =>
        loadActor<DhTemplateList>('dhTemplatesAll', (signal) => e.getDhTemplates({}, { signal })),
      /** New (target null) or the row's edit. */
      dialog: () =>
        dialogActor<DhTemplate, TemplatePayload, unknown, TemplateValues>(
          'dhTemplateDialog',
          (_row, payload) =>
            payload.kind === 'add' ? e.addDhTemplate(payload.body) : e.editDhTemplate(payload.body),
          templateFields,
        ),
      remove: () =>
        dialogActor<DhTemplate, DhTemplateDeleteBody, DhTemplateDeleteReply>(
          'dhTemplateDelete',
          (_row, body) => e.deleteDhTemplates(body),
        ),
      /** "Save as template" of a done video: its name (at most 30 characters) to start with. */
      fromVideo: () =>
        dialogActor<DhVideo, DhTemplateFromVideoBody, DhTemplateAddReply, { text: string }>(
          'dhTemplateFromVideo',
          (_video, body) => e.addDhTemplateFromVideo(body),
          textFields<DhVideo, DhTemplateFromVideoBody>(
            (video) => [...(video?.name ?? '')].slice(0, FROM_VIDEO_NAME).join(''),
            (video, name) => ({ video_id: video?.id ?? Number.NaN, name }),
            dhTemplateFromVideoBody,
          ),
        ),
      picker: () => createActor(resourcePickerMachine),
      pickerResources: () =>
        listActor<ResourceFilters, Resource>(
          'dhTemplatePickerResources',
          ({ filters, page, limit }, signal) =>
            e.getResources({ ...resourceQuery(filters), page, limit }, { signal }),
          { type: 'image', keyword: '', group: 'all' },
          RESOURCE_PAGE_SIZE,
        ),
      pickerGroups: () =>
        loadActor<GroupListReply>('dhTemplatePickerGroups', (signal) => e.getGroups({ signal })),
      /** The admin's pictures of a platform template (platform images). */
      backgroundUpload: upload,
      coverUpload: upload,
    },
    (all, started) => {
      const reload = () => {
        started('list')?.send({ type: 'RELOAD' });
        started('all')?.send({ type: 'RELOAD' });
      };
      const afterDone = <T, P, R, F>(
        actor: DialogActor<T, P, R, F>,
        message: string,
        values?: (target: T | null) => Record<string, string>,
      ) => [
        whenChanged(
          actor,
          (s) => s.context.completed,
          () => {
            toast('success', message, values?.(actor.getSnapshot().context.target));
            reload();
          },
        ),
      ];
      /** A file into the draft (after the server's refusal, into the same draft again). */
      const intoForm = (field: TemplateFileField, value: TemplateValues[TemplateFileField]) => {
        if (all.dialog.getSnapshot().matches('failed')) all.dialog.send({ type: 'BACK' });
        all.dialog.send({ type: 'SET', field, value });
      };
      const intoDraft = (field: TemplateFileField) => (uploads: ImageUploadActor) => [
        uploads.on('uploaded', ({ image, name }) => intoForm(field, fileOfImage(image.url, name))),
      ];
      return {
        dialog: (dialog) => [
          ...afterDone(dialog, 'dhTemplates.saved'),
          // Closed or opened anew: no upload of the last draft goes on, nor its error.
          whenChanged(
            dialog,
            (s) => (s.hasTag('open') ? 'open' : 'closed'),
            () => {
              started('backgroundUpload')?.send({ type: 'RESET' });
              started('coverUpload')?.send({ type: 'RESET' });
            },
          ),
        ],
        remove: (remove) =>
          afterDone(remove, 'dhTemplates.deleted', (row) => ({ name: row?.name ?? '' })),
        fromVideo: (fromVideo) => afterDone(fromVideo, 'dhTemplates.savedFromVideo'),
        backgroundUpload: intoDraft('backgroundImage'),
        coverUpload: intoDraft('cover'),
        picker: (picker) =>
          wirePicker(picker, all.pickerResources, (slot, picked) => {
            if (slot.form !== 'dhTemplate') return;
            const one = picked[0];
            intoForm(slot.part, one ? fileOfPicked(one) : null);
          }),
      };
    },
  );
}

export type DhTemplatesActors = ReturnType<typeof createDhTemplateActors>;

export const dhTemplatesArea = defineArea<DhTemplatesEndpoints, DhTemplatesActors>({
  key: 'dhTemplates',
  live: () => ({
    getDhTemplates: api.getDhTemplates,
    addDhTemplate: api.addDhTemplate,
    editDhTemplate: api.editDhTemplate,
    deleteDhTemplates: api.deleteDhTemplates,
    addDhTemplateFromVideo: api.addDhTemplateFromVideo,
    getResources: resourcesApi.getResources,
    getGroups: resourcesApi.getGroups,
    uploadPlatformImage,
  }),
  create: (endpoints) => createDhTemplateActors(endpoints),
});
