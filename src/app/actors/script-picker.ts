/**
 * The "from scripts" picker of the creation and plan forms (docs/domain.md §23): the industry tree
 * and the scripts of one kind (spoken copy, titles or topics), by industry and keyword, from the
 * creators' reads (`GET /platform/industry`, `GET /platform/script`). One list for every form: one
 * picker is open at a time, and the industry chosen last is kept for the next.
 */
import type { IndustryTree, Script, ScriptKind } from '../../api/contract/ai-tools';
import * as api from '../../api/ai-tools';
import { defineArea, lazyActors } from './areas';
import { listActor, loadActor } from './factories';

export interface ScriptPickerEndpoints {
  getIndustries: typeof api.getIndustries;
  getScripts: typeof api.getScripts;
}

export interface ScriptPickFilters {
  kind: ScriptKind;
  /** '' every industry; a top-level one takes its sub-industries' scripts too. */
  industry_id: string;
  keyword: string;
}

/** Scripts per page of the picker. */
export const SCRIPT_PAGE_SIZE = 10;

function createScriptPickerActors(e: ScriptPickerEndpoints) {
  return lazyActors({
    industries: () =>
      loadActor<IndustryTree>('pickerIndustries', (signal) => e.getIndustries({ signal })),
    scripts: () =>
      listActor<ScriptPickFilters, Script>(
        'pickerScripts',
        ({ filters, page, limit }, signal) =>
          e.getScripts(
            {
              industry_id: filters.industry_id,
              kind: filters.kind,
              keyword: filters.keyword.trim(),
              page,
              limit,
            },
            { signal },
          ),
        { kind: 'copy', industry_id: '', keyword: '' },
        SCRIPT_PAGE_SIZE,
      ),
  });
}

export type ScriptPickerActors = ReturnType<typeof createScriptPickerActors>;

export const scriptPickerArea = defineArea<ScriptPickerEndpoints, ScriptPickerActors>({
  key: 'scriptPicker',
  live: () => ({ getIndustries: api.getIndustries, getScripts: api.getScripts }),
  create: (endpoints) => createScriptPickerActors(endpoints),
});
