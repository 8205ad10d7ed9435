/**
 * The video template form's draft (held by its dialog machine, docs/architecture.md "Forms") and
 * what it sends (docs/domain.md §10 "Video templates"). The layout is typed in percent of the
 * frame; the check turns the draft into the call's body and checks it with the contract's own
 * schemas (`dhTemplateAddBody`, `dhTemplateEditBody`), so it refuses exactly what the server
 * would, each message under its field.
 */
import type { z } from 'zod';
import {
  dhTemplateAddBody,
  dhTemplateEditBody,
  type DhTemplate,
  type DhTemplateAddBody,
  type DhTemplateEditBody,
  type TemplateFile,
  type TemplateLayout,
  type TemplateRatio,
} from '../../api/contract/dh-templates';
import type { Checked } from '../../machines/draft-dialog';
import type { CustomerDialogForm } from '../../machines/customers/customer-dialog';
import type { Picked } from '../../machines/task-form';

/** A file of the template as the form shows it: a resource of the library, or a platform image. */
export interface TemplateFileValue {
  resourceId: number | null;
  imageUrl: string | null;
  name: string;
  /** Where it is shown or played. */
  url: string | null;
  /** A video's poster. */
  poster: string | null;
}

/** The presenter's rectangle in percent of the frame, as typed. */
export interface AvatarValues {
  x: string;
  y: string;
  width: string;
  height: string;
}

export interface TemplateValues {
  name: string;
  ratio: TemplateRatio;
  avatar: AvatarValues;
  /** Percent of the height from the top, and of the height. */
  subtitleY: string;
  subtitleSize: string;
  subtitleColor: string;
  background: string;
  backgroundImage: TemplateFileValue | null;
  cover: TemplateFileValue | null;
  demo: TemplateFileValue | null;
  music: TemplateFileValue | null;
}

/** The call of the form: a new template or an edit. */
export type TemplatePayload =
  { kind: 'add'; body: DhTemplateAddBody } | { kind: 'edit'; body: DhTemplateEditBody };

/** Where a new template puts the presenter, per ratio (the built-in templates' places). */
export const DEFAULT_AVATAR: Record<TemplateRatio, TemplateLayout['avatar']> = {
  '9:16': { x: 0, y: 0, width: 1, height: 1 },
  '16:9': { x: 0.6, y: 0.05, width: 0.35, height: 0.95 },
  '1:1': { x: 0.2, y: 0.05, width: 0.6, height: 0.95 },
  '4:3': { x: 0.55, y: 0.05, width: 0.4, height: 0.95 },
};

const percent = (fraction: number) => String(Math.round(fraction * 1000) / 10);
/** A percentage as typed, as a fraction; anything else NaN (the contract names the field). */
const fraction = (typed: string) => {
  const text = typed.trim();
  return /^\d{1,3}(\.\d{1,3})?$/.test(text) ? Number(text) / 100 : Number.NaN;
};

export const fileOfTemplate = (f: TemplateFile | null): TemplateFileValue | null =>
  f && {
    resourceId: f.resource_id,
    imageUrl: f.image_url,
    name: f.name,
    url: f.url,
    poster: f.poster,
  };

/** A resource the picker picked, as a file of the template. */
export const fileOfPicked = (p: Picked): TemplateFileValue => ({
  resourceId: p.id,
  imageUrl: null,
  name: p.name,
  url: p.url,
  poster: p.cover,
});

/** An uploaded platform image, as a file of the template. */
export const fileOfImage = (url: string, name: string): TemplateFileValue => ({
  resourceId: null,
  imageUrl: url,
  name,
  url,
  poster: null,
});

const avatarValues = (a: TemplateLayout['avatar']): AvatarValues => ({
  x: percent(a.x),
  y: percent(a.y),
  width: percent(a.width),
  height: percent(a.height),
});

/** The draft a dialog opens with: the row's, or a new landscape template's. */
export function startTemplateForm(row: DhTemplate | null): TemplateValues {
  if (!row) {
    return {
      name: '',
      ratio: '16:9',
      avatar: avatarValues(DEFAULT_AVATAR['16:9']),
      subtitleY: '85',
      subtitleSize: '4.5',
      subtitleColor: '#FFFFFF',
      background: '#1F3A5F',
      backgroundImage: null,
      cover: null,
      demo: null,
      music: null,
    };
  }
  return {
    name: row.name,
    ratio: row.ratio,
    avatar: avatarValues(row.layout.avatar),
    subtitleY: percent(row.layout.subtitle.y),
    subtitleSize: percent(row.layout.subtitle.size),
    subtitleColor: row.layout.subtitle.color,
    background: row.layout.background,
    backgroundImage: fileOfTemplate(row.background_image),
    cover: fileOfTemplate(row.cover_image),
    demo: fileOfTemplate(row.demo),
    music: fileOfTemplate(row.music),
  };
}

/** The layout a draft makes (what the frame preview draws; NaN where a number is not one). */
export function layoutOf(v: TemplateValues): TemplateLayout {
  return {
    avatar: {
      x: fraction(v.avatar.x),
      y: fraction(v.avatar.y),
      width: fraction(v.avatar.width),
      height: fraction(v.avatar.height),
    },
    subtitle: {
      y: fraction(v.subtitleY),
      size: fraction(v.subtitleSize),
      color: v.subtitleColor.trim(),
    },
    background: v.background.trim(),
  };
}

/** A file's fields of the body: a resource by id, a platform image by its address. */
const fileFields = <I extends string, U extends string>(
  file: TemplateFileValue | null,
  id: I,
  url: U | null,
) => ({
  [id]: file?.resourceId ?? null,
  ...(url ? { [url]: file?.imageUrl ?? null } : {}),
});

/** The body the draft makes; an edit of a built-in template sends its name only when changed. */
export function templatePayload(v: TemplateValues, row: DhTemplate | null): TemplatePayload {
  const fields = {
    ratio: v.ratio,
    layout: layoutOf(v),
    ...fileFields(v.backgroundImage, 'background_image_id', 'background_image_url'),
    ...fileFields(v.cover, 'cover_id', 'cover_url'),
    ...fileFields(v.demo, 'demo_id', null),
    ...fileFields(v.music, 'music_id', null),
  } as Omit<DhTemplateAddBody, 'name'>;
  if (!row) return { kind: 'add', body: { name: v.name, ...fields } };
  const keepName = row.builtin && v.name === row.name;
  return {
    kind: 'edit',
    body: { id: row.id, ...(keepName ? {} : { name: v.name }), ...fields },
  };
}

/** The form's field a refused part of the body belongs to. */
function fieldOf(path: readonly PropertyKey[]): keyof TemplateValues | '_form' {
  const [top, part, leaf] = path.map(String);
  if (top === 'name' || top === 'ratio') return top;
  if (top === 'layout') {
    if (part === 'avatar') return 'avatar';
    if (part === 'background') return 'background';
    if (part === 'subtitle') {
      return leaf === 'y' ? 'subtitleY' : leaf === 'size' ? 'subtitleSize' : 'subtitleColor';
    }
  }
  if (top?.startsWith('background_image')) return 'backgroundImage';
  if (top?.startsWith('cover')) return 'cover';
  if (top === 'demo_id') return 'demo';
  if (top === 'music_id') return 'music';
  return '_form';
}

/** The draft checked with the contract: the payload, or each field's first message id. */
export function checkTemplateForm(
  v: TemplateValues,
  row: DhTemplate | null,
): Checked<TemplatePayload> {
  const payload = templatePayload(v, row);
  const schema: z.ZodType = payload.kind === 'add' ? dhTemplateAddBody : dhTemplateEditBody;
  const result = schema.safeParse(payload.body);
  if (result.success) return { draft: payload };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[fieldOf(issue.path)] ??= issue.message;
  return { errors };
}

/** The template dialog's fields (the dialog machine owns the draft). */
export const templateFields: CustomerDialogForm<DhTemplate, TemplatePayload, TemplateValues> = {
  start: (row) => startTemplateForm(row),
  check: (form, row) => checkTemplateForm(form, row),
};
