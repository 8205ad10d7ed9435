import { z } from 'zod';
import type { ValidationMessageId } from './messages';
import { displayName, multilineText, text } from './text';

/**
 * AI tools, industries and scripts (docs/domain.md §23; admin manages, creators read):
 * - `GET /ai_tool/list {keyword?, page, limit}` → `{list, total}` (admin).
 * - `POST /ai_tool/add {key, name, model, template, variables, unit, cost, status}` → the tool;
 *   `POST /ai_tool/edit {id, …same}` → the tool; `POST /ai_tool/delete {id}` → null.
 * - `POST /ai_tool/try {id, vars}` → `{answer, prompt, demonstration, provider}`: the template filled
 *   with `vars` and run through the AI-text integration; nothing is stored or charged.
 * - `GET /platform/industry` → `{list, total}`: the industries, each with its sub-industries
 *   (`children`), in `sort` then id order (admin, partner, merchant).
 * - `POST /industry/add {name, parent_id?, sort?}`, `/industry/edit {id, name, sort?}`,
 *   `/industry/delete {id}` (admin).
 * - `GET /platform/script {industry_id?, kind?, keyword?, page, limit}` → `{list, total}`
 *   (admin, partner, merchant); an industry's scripts include its sub-industries'.
 * - `POST /script/add {industry_id, kind, content}`, `/script/edit {id, …}`, `/script/delete {id}`.
 */

const msg = (id: ValidationMessageId) => ({ message: id });

const id = z.coerce
  .number(msg('validation.invalid'))
  .int(msg('validation.invalid'))
  .positive(msg('validation.invalid'))
  .max(Number.MAX_SAFE_INTEGER, msg('validation.invalid'));
const page = z.coerce.number(msg('validation.invalid')).int().min(1).max(1_000_000).default(1);
const limit = z.coerce.number(msg('validation.invalid')).int().min(1).max(100).default(20);
const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v);
const keyword = z.preprocess(emptyAsAbsent, text().trim().max(100).optional());

/** The units a tool's cost is counted in (the console names them in the reader's locale). */
export const AI_TOOL_UNITS = ['call', 'item', 'thousand_tokens'] as const;
export type AiToolUnit = (typeof AI_TOOL_UNITS)[number];
export const AI_TOOL_STATUSES = ['enabled', 'disabled'] as const;
export type AiToolStatus = (typeof AI_TOOL_STATUSES)[number];

/** A variable's name: a letter or `_`, then letters, digits or `_`, at most 32. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;
/** At most this many declared variables per tool. */
export const MAX_VARIABLES = 20;
export const MAX_TEMPLATE = 4000;
export const MAX_VAR_VALUE = 2000;

/**
 * The placeholders of a template, in order of first use: each `${…}`'s inner text, trimmed
 * (`${ title }` names `title`). An inner text that is no variable name is returned as it is, so
 * the caller reports it as undeclared.
 */
export function templatePlaceholders(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\$\{([^}]*)\}/g)) {
    const name = (match[1] ?? '').trim();
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The placeholders of `template` that are not among `declared` (docs/domain.md §23). */
export function undeclaredPlaceholders(template: string, declared: readonly string[]): string[] {
  return templatePlaceholders(template).filter((name) => !declared.includes(name));
}

/**
 * The template with each `${name}` replaced by `vars[name]` (the caller has checked that every
 * placeholder has a value). A value is inserted as text: a `${…}` inside it is not filled again.
 */
export function fillTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\$\{([^}]*)\}/g, (_, inner: string) => vars[inner.trim()] ?? '');
}

/** A money amount from 0 to 99 999.99, as a string with at most 2 decimals (`"0"`, `"0.05"`). */
const cost = z
  .union([text(), z.number()], msg('validation.aiToolCost'))
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(/^\d{1,5}(\.\d{1,2})?$/, msg('validation.aiToolCost')));

const toolFields = {
  /** Unique; lower-case letters, digits and `_`, 2–40. */
  key: text('validation.aiToolKey')
    .trim()
    .regex(/^[a-z0-9_]{2,40}$/, msg('validation.aiToolKey')),
  name: displayName({ max: 40, message: 'validation.aiToolName' }),
  /** The model to ask; '' for the AI-text integration's configured model. */
  model: text('validation.aiToolModel')
    .trim()
    .max(100, msg('validation.aiToolModel'))
    .regex(/^[^\s]*$/, msg('validation.aiToolModel')),
  template: multilineText('validation.aiToolTemplate')
    .min(1, msg('validation.aiToolTemplate'))
    .max(MAX_TEMPLATE, msg('validation.aiToolTemplate'))
    .refine((v) => v.trim() !== '', msg('validation.aiToolTemplate')),
  /** The declared variables' names (distinct); the template may use only these. */
  variables: z
    .array(
      text('validation.aiToolVariable')
        .trim()
        .regex(VARIABLE_NAME, msg('validation.aiToolVariable')),
      msg('validation.aiToolVariable'),
    )
    .max(MAX_VARIABLES, msg('validation.aiToolVariables'))
    .refine((names) => new Set(names).size === names.length, msg('validation.aiToolVariables')),
  unit: z.enum(AI_TOOL_UNITS, msg('validation.aiToolUnit')),
  cost,
  status: z.enum(AI_TOOL_STATUSES, msg('validation.aiToolStatus')),
};

export const aiToolAddBody = z.strictObject(toolFields);
export const aiToolEditBody = z.strictObject({ id, ...toolFields });
export const aiToolDeleteBody = z.strictObject({ id });
export const aiToolListQuery = z.strictObject({ keyword, page, limit });
export const aiToolTryBody = z.strictObject({
  id,
  /** A value for each declared variable the template uses (1–2000 characters each). */
  vars: z.record(
    z.string(),
    multilineText('validation.aiToolVarValue').max(MAX_VAR_VALUE, msg('validation.aiToolVarValue')),
    msg('validation.aiToolVarValue'),
  ),
});
export type AiToolAddBody = z.input<typeof aiToolAddBody>;
export type AiToolAddParams = z.output<typeof aiToolAddBody>;
export type AiToolEditBody = z.input<typeof aiToolEditBody>;
export type AiToolEditParams = z.output<typeof aiToolEditBody>;
export type AiToolListQuery = z.input<typeof aiToolListQuery>;
export type AiToolTryBody = z.input<typeof aiToolTryBody>;

export const aiToolSchema = z.object({
  id: z.number(),
  key: z.string(),
  name: z.string(),
  model: z.string(),
  template: z.string(),
  variables: z.array(z.string()),
  unit: z.enum(AI_TOOL_UNITS),
  cost: z.string(),
  status: z.enum(AI_TOOL_STATUSES),
  created_at: z.number(),
  updated_at: z.number(),
});
export type AiTool = z.infer<typeof aiToolSchema>;
export const aiToolPageSchema = z.object({ list: z.array(aiToolSchema), total: z.number() });
export type AiToolPage = z.infer<typeof aiToolPageSchema>;

export const aiToolTryReplySchema = z.object({
  /** The service's answer (the embedded provider's is demonstration output, never a model's). */
  answer: z.string(),
  /** The filled template, as sent. */
  prompt: z.string(),
  /** True when the embedded provider answered (the console shows a "demonstration" badge). */
  demonstration: z.boolean(),
  provider: z.enum(['embedded', 'openai']),
});
export type AiToolTryReply = z.infer<typeof aiToolTryReplySchema>;

/** The platform's default tool that `/matrix/ai_imitate_title` uses (docs/domain.md §23). */
export const IMITATE_TITLE_TOOL = 'imitate_title';
/** The variables `/matrix/ai_imitate_title` fills in that tool's template. */
export const IMITATE_TITLE_VARIABLES = ['title', 'count', 'max_length', 'platform'] as const;

// ---- Industries and scripts ----

export const SCRIPT_KINDS = ['copy', 'title', 'topic'] as const;
export type ScriptKind = (typeof SCRIPT_KINDS)[number];
export const MAX_SCRIPT = 2000;

const sort = z.coerce
  .number(msg('validation.industrySort'))
  .int(msg('validation.industrySort'))
  .min(0, msg('validation.industrySort'))
  .max(999_999, msg('validation.industrySort'))
  .default(0);
const industryName = displayName({ max: 20, message: 'validation.industryName' });

export const industryAddBody = z.strictObject({
  name: industryName,
  /** A top-level industry's id for a sub-industry; absent or 0 for a top-level one. */
  parent_id: z.coerce.number(msg('validation.invalid')).int().min(0).default(0),
  sort,
});
export const industryEditBody = z.strictObject({ id, name: industryName, sort });
export const industryDeleteBody = z.strictObject({ id });
export type IndustryAddBody = z.input<typeof industryAddBody>;
export type IndustryEditBody = z.input<typeof industryEditBody>;

export interface Industry {
  id: number;
  name: string;
  sort: number;
  /** 0 for a top-level industry. */
  parent_id: number;
  children: Industry[];
}
const industryBase = z.object({
  id: z.number(),
  name: z.string(),
  sort: z.number(),
  parent_id: z.number(),
});
export const industrySchema: z.ZodType<Industry> = industryBase.extend({
  children: z.array(industryBase.extend({ children: z.array(z.never()) })),
}) as unknown as z.ZodType<Industry>;
export const industryTreeSchema = z.object({ list: z.array(industrySchema), total: z.number() });
export type IndustryTree = z.infer<typeof industryTreeSchema>;

const scriptContent = multilineText('validation.scriptContent')
  .trim()
  .min(1, msg('validation.scriptContent'))
  .max(MAX_SCRIPT, msg('validation.scriptContent'));
const scriptKind = z.enum(SCRIPT_KINDS, msg('validation.scriptKind'));

export const scriptAddBody = z.strictObject({
  industry_id: id,
  kind: scriptKind,
  content: scriptContent,
});
export const scriptEditBody = z.strictObject({
  id,
  industry_id: id,
  kind: scriptKind,
  content: scriptContent,
});
export const scriptDeleteBody = z.strictObject({ id });
export const scriptListQuery = z.strictObject({
  industry_id: z.preprocess(emptyAsAbsent, id.optional()),
  kind: z.preprocess(emptyAsAbsent, scriptKind.optional()),
  keyword,
  page,
  limit,
});
export type ScriptAddBody = z.input<typeof scriptAddBody>;
export type ScriptEditBody = z.input<typeof scriptEditBody>;
export type ScriptListQuery = z.input<typeof scriptListQuery>;
export type ScriptListParams = z.output<typeof scriptListQuery>;

export const scriptSchema = z.object({
  id: z.number(),
  industry_id: z.number(),
  industry_name: z.string(),
  kind: z.enum(SCRIPT_KINDS),
  content: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Script = z.infer<typeof scriptSchema>;
export const scriptPageSchema = z.object({ list: z.array(scriptSchema), total: z.number() });
export type ScriptPage = z.infer<typeof scriptPageSchema>;
