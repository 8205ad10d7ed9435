/** AI tools, industries and scripts (docs/domain.md §23; contract: ./contract/ai-tools.ts). */
import type {
  AiTool,
  AiToolAddBody,
  AiToolEditBody,
  AiToolPage,
  AiToolTryBody,
  AiToolTryReply,
  Industry,
  IndustryAddBody,
  IndustryEditBody,
  IndustryTree,
  Script,
  ScriptAddBody,
  ScriptEditBody,
  ScriptPage,
} from './contract/ai-tools';
import { get, post, type RequestOptions } from './http';

export const getAiTools = (
  query: { keyword?: string; page: number; limit: number },
  options?: RequestOptions,
) => get<AiToolPage>('/ai_tool/list', query, options);
export const addAiTool = (body: AiToolAddBody) => post<AiTool>('/ai_tool/add', body);
export const editAiTool = (body: AiToolEditBody) => post<AiTool>('/ai_tool/edit', body);
export const deleteAiTool = (id: number) => post<null>('/ai_tool/delete', { id });
export const tryAiTool = (body: AiToolTryBody) => post<AiToolTryReply>('/ai_tool/try', body);

export const getIndustries = (options?: RequestOptions) =>
  get<IndustryTree>('/platform/industry', undefined, options);
export const addIndustry = (body: IndustryAddBody) => post<Industry>('/industry/add', body);
export const editIndustry = (body: IndustryEditBody) => post<Industry>('/industry/edit', body);
export const deleteIndustry = (id: number) => post<null>('/industry/delete', { id });

export type ScriptQuery = {
  /** '' every industry. */
  industry_id?: string;
  kind?: string;
  keyword?: string;
  page: number;
  limit: number;
};
export const getScripts = (query: ScriptQuery, options?: RequestOptions) =>
  get<ScriptPage>('/platform/script', query, options);
export const addScript = (body: ScriptAddBody) => post<Script>('/script/add', body);
export const editScript = (body: ScriptEditBody) => post<Script>('/script/edit', body);
export const deleteScript = (id: number) => post<null>('/script/delete', { id });
