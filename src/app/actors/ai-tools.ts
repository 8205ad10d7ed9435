/**
 * The AI tool area (/ai-tool/ai-tool-index, admin; docs/domain.md §23): the AI tools, the
 * industry tree and the scripts, each with its add / edit dialog (a draft dialog machine checked
 * against the contract's schema), a delete confirmation, and the try-it call. After a change the
 * area reloads what changed and says so.
 */
import { createActor, fromPromise } from 'xstate';
import type {
  AiTool,
  AiToolTryBody,
  AiToolTryReply,
  IndustryTree,
  Script,
  ScriptKind,
} from '../../api/contract/ai-tools';
import {
  aiToolAddBody,
  aiToolEditBody,
  industryAddBody,
  industryEditBody,
  scriptAddBody,
  scriptEditBody,
} from '../../api/contract/ai-tools';
import * as api from '../../api/ai-tools';
import { createDraftDialogMachine } from '../../machines/draft-dialog';
import { defineArea, lazyActors } from './areas';
import {
  dialogActor,
  listActor,
  loadActor,
  submitActor,
  toast,
  whenChanged,
  type DialogActor,
} from './factories';

export interface AiToolEndpoints {
  getAiTools: typeof api.getAiTools;
  addAiTool: typeof api.addAiTool;
  editAiTool: typeof api.editAiTool;
  deleteAiTool: typeof api.deleteAiTool;
  tryAiTool: typeof api.tryAiTool;
  getIndustries: typeof api.getIndustries;
  addIndustry: typeof api.addIndustry;
  editIndustry: typeof api.editIndustry;
  deleteIndustry: typeof api.deleteIndustry;
  getScripts: typeof api.getScripts;
  addScript: typeof api.addScript;
  editScript: typeof api.editScript;
  deleteScript: typeof api.deleteScript;
}

/** A tool's form: every field as the inputs hold it. */
export interface ToolDraft {
  key: string;
  name: string;
  model: string;
  template: string;
  /** The declared variables, comma- or space-separated as typed. */
  variables: string;
  unit: AiTool['unit'];
  cost: string;
  status: AiTool['status'];
}
export const NEW_TOOL: ToolDraft = {
  key: '',
  name: '',
  model: '',
  template: '',
  variables: '',
  unit: 'call',
  cost: '0',
  status: 'enabled',
};
/** The declared variables of a draft (the names typed, in order). */
export const declaredOf = (variables: string) =>
  variables
    .split(/[\s,，]+/)
    .map((v) => v.trim())
    .filter(Boolean);
export const toolDraftOf = (tool: AiTool): ToolDraft => ({
  ...tool,
  variables: tool.variables.join(', '),
});

export interface IndustryDraft {
  name: string;
  /** '' or '0': a top-level industry. */
  parent_id: string;
  sort: string;
}
export const NEW_INDUSTRY: IndustryDraft = { name: '', parent_id: '', sort: '0' };

export interface ScriptDraft {
  industry_id: string;
  kind: ScriptKind;
  content: string;
}
export const NEW_SCRIPT: ScriptDraft = { industry_id: '', kind: 'copy', content: '' };

export interface ScriptFilters {
  industry_id: string;
  kind: ScriptKind | '';
  keyword: string;
}
export const NO_SCRIPT_FILTERS: ScriptFilters = { industry_id: '', kind: '', keyword: '' };

/** What a delete confirmation is about. */
export interface DeleteTarget {
  kind: 'tool' | 'industry' | 'script';
  id: number;
  /** Shown in the question. */
  label: string;
}

const numberOr = (text: string, fallback: unknown) => {
  const trimmed = text.trim();
  return trimmed === '' ? fallback : Number(trimmed);
};

function draftActor<D extends object>(
  id: string,
  empty: D,
  schema: Parameters<typeof createDraftDialogMachine<D>>[1]['schema'],
  toBody: (draft: D, target: number | null) => unknown,
  submit: (body: unknown, target: number | null) => Promise<unknown>,
) {
  return createActor(
    createDraftDialogMachine<D>(id, { empty, schema, toBody }).provide({
      actors: { submit: fromPromise(({ input }) => submit(input.body, input.target)) },
    }),
  );
}

/** The body of `/ai_tool/add` (target null) or `/ai_tool/edit` a tool's draft makes. */
export const toolBody = (d: ToolDraft, target: number | null) => ({
  ...(target === null ? {} : { id: target }),
  key: d.key.trim(),
  name: d.name,
  model: d.model.trim(),
  template: d.template,
  variables: declaredOf(d.variables),
  unit: d.unit,
  cost: d.cost.trim(),
  status: d.status,
});

function createAiToolActors(e: AiToolEndpoints) {
  return lazyActors(
    {
      tools: () =>
        listActor<{ keyword: string }, AiTool>(
          'aiTools',
          ({ filters, page, limit }, signal) =>
            e.getAiTools({ keyword: filters.keyword, page, limit }, { signal }),
          { keyword: '' },
        ),
      industries: () =>
        loadActor<IndustryTree>('industries', (signal) => e.getIndustries({ signal })),
      scripts: () =>
        listActor<ScriptFilters, Script>(
          'scripts',
          ({ filters, page, limit }, signal) =>
            e.getScripts(
              {
                industry_id: filters.industry_id,
                kind: filters.kind,
                keyword: filters.keyword,
                page,
                limit,
              },
              { signal },
            ),
          NO_SCRIPT_FILTERS,
        ),
      toolDialog: () =>
        draftActor<ToolDraft>(
          'aiToolDialog',
          NEW_TOOL,
          (target) => (target === null ? aiToolAddBody : aiToolEditBody),
          toolBody,
          (body, target) =>
            target === null
              ? e.addAiTool(body as Parameters<typeof e.addAiTool>[0])
              : e.editAiTool(body as Parameters<typeof e.editAiTool>[0]),
        ),
      industryDialog: () =>
        draftActor<IndustryDraft>(
          'industryDialog',
          NEW_INDUSTRY,
          (target) => (target === null ? industryAddBody : industryEditBody),
          (d, target) =>
            target === null
              ? { name: d.name, parent_id: numberOr(d.parent_id, 0), sort: numberOr(d.sort, 0) }
              : { id: target, name: d.name, sort: numberOr(d.sort, 0) },
          (body, target) =>
            target === null
              ? e.addIndustry(body as Parameters<typeof e.addIndustry>[0])
              : e.editIndustry(body as Parameters<typeof e.editIndustry>[0]),
        ),
      scriptDialog: () =>
        draftActor<ScriptDraft>(
          'scriptDialog',
          NEW_SCRIPT,
          (target) => (target === null ? scriptAddBody : scriptEditBody),
          (d, target) => ({
            ...(target === null ? {} : { id: target }),
            industry_id: numberOr(d.industry_id, undefined),
            kind: d.kind,
            content: d.content,
          }),
          (body, target) =>
            target === null
              ? e.addScript(body as Parameters<typeof e.addScript>[0])
              : e.editScript(body as Parameters<typeof e.editScript>[0]),
        ),
      remove: () =>
        dialogActor<DeleteTarget, null, null>('aiToolDelete', async (target) => {
          if (!target) return null;
          if (target.kind === 'tool') return e.deleteAiTool(target.id);
          if (target.kind === 'industry') return e.deleteIndustry(target.id);
          return e.deleteScript(target.id);
        }),
      tryIt: () => submitActor<AiToolTryBody, AiToolTryReply>((body) => e.tryAiTool(body)),
    },
    (_actors, started) => {
      const completed = (actor: unknown, then: () => void) => [
        whenChanged(actor as DialogActor<unknown, unknown>, (s) => s.context.completed, then),
      ];
      const reload = (key: 'tools' | 'industries' | 'scripts') =>
        started(key)?.send({ type: 'RELOAD' });
      return {
        toolDialog: (dialog) =>
          completed(dialog, () => {
            toast('success', 'aiTool.toolSaved');
            reload('tools');
          }),
        industryDialog: (dialog) =>
          completed(dialog, () => {
            toast('success', 'aiTool.industrySaved');
            reload('industries');
            reload('scripts');
          }),
        scriptDialog: (dialog) =>
          completed(dialog, () => {
            toast('success', 'aiTool.scriptSaved');
            reload('scripts');
          }),
        remove: (remove) =>
          completed(remove, () => {
            const kind = remove.getSnapshot().context.target?.kind;
            toast('success', 'aiTool.deleted');
            if (kind === 'tool') reload('tools');
            else if (kind === 'industry') reload('industries');
            else reload('scripts');
          }),
      };
    },
  );
}

export type AiToolActors = ReturnType<typeof createAiToolActors>;

export const aiToolArea = defineArea<AiToolEndpoints, AiToolActors>({
  key: 'aiTool',
  live: () => ({ ...api }),
  create: (endpoints) => createAiToolActors(endpoints),
});
