import type { FastifyInstance } from 'fastify';
import {
  aiToolAddBody,
  aiToolDeleteBody,
  aiToolEditBody,
  aiToolListQuery,
  aiToolPageSchema,
  aiToolSchema,
  aiToolTryBody,
  aiToolTryReplySchema,
  industryAddBody,
  industryDeleteBody,
  industryEditBody,
  industrySchema,
  industryTreeSchema,
  scriptAddBody,
  scriptDeleteBody,
  scriptEditBody,
  scriptListQuery,
  scriptPageSchema,
  scriptSchema,
} from '../../../src/api/contract/ai-tools';
import { noData } from '../../../src/api/contract/replies';
import type { Policy } from '../../platform/http/policy';
import { defineRoute } from '../../platform/http/route';
import {
  addIndustry,
  addScript,
  deleteIndustry,
  deleteScript,
  editIndustry,
  editScript,
  industryTree,
  listScripts,
} from './industries';
import { addTool, deleteTool, editTool, listTools, tryTool } from './tools';

/** AI tools, industries and scripts are the platform's (docs/domain.md §11, §23). */
const ADMIN: Policy = { roles: ['admin'], scope: 'platform: the platform’s own rows' };
/** The creators read industries and scripts for their pickers; the admin manages them. */
const READERS: Policy = {
  roles: ['admin', 'partner', 'merchant'],
  scope: 'platform: everyone reads the platform’s industries and scripts',
};

export function aiToolRoutes(app: FastifyInstance): void {
  const { ctx } = app;

  defineRoute(app, {
    method: 'GET',
    url: '/ai_tool/list',
    reply: aiToolPageSchema,
    policy: ADMIN,
    query: aiToolListQuery,
    handler: ({ query }) => listTools(ctx, query),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/ai_tool/add',
    reply: aiToolSchema,
    policy: ADMIN,
    body: aiToolAddBody,
    audit: { action: 'ai_tool.add', resource: 'ai_tool', id: 'result' },
    successMessage: 'aiTool.saved',
    handler: ({ body, audit }) => addTool(ctx, body, audit),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/ai_tool/edit',
    reply: aiToolSchema,
    policy: ADMIN,
    body: aiToolEditBody,
    audit: { action: 'ai_tool.edit', resource: 'ai_tool', id: ({ body }) => body.id },
    successMessage: 'aiTool.saved',
    handler: ({ body, audit }) => editTool(ctx, body, audit),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/ai_tool/delete',
    reply: noData,
    policy: ADMIN,
    body: aiToolDeleteBody,
    audit: { action: 'ai_tool.delete', resource: 'ai_tool', id: ({ body }) => body.id },
    successMessage: 'aiTool.deleted',
    handler: ({ body, audit }) => deleteTool(ctx, body, audit),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/ai_tool/try',
    reply: aiToolTryReplySchema,
    policy: ADMIN,
    body: aiToolTryBody,
    audit: { none: 'runs a tool for the admin to read: nothing is stored or charged' },
    handler: ({ body }) => tryTool(ctx, body),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/industry',
    reply: industryTreeSchema,
    policy: READERS,
    handler: () => industryTree(ctx),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/industry/add',
    reply: industrySchema,
    policy: ADMIN,
    body: industryAddBody,
    audit: { action: 'industry.add', resource: 'industry', id: 'result' },
    successMessage: 'industry.saved',
    handler: ({ body, audit }) => addIndustry(ctx, body, audit),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/industry/edit',
    reply: industrySchema,
    policy: ADMIN,
    body: industryEditBody,
    audit: { action: 'industry.edit', resource: 'industry', id: ({ body }) => body.id },
    successMessage: 'industry.saved',
    handler: ({ body, audit }) => editIndustry(ctx, body, audit),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/industry/delete',
    reply: noData,
    policy: ADMIN,
    body: industryDeleteBody,
    audit: { action: 'industry.delete', resource: 'industry', id: ({ body }) => body.id },
    successMessage: 'industry.deleted',
    handler: ({ body, audit }) => deleteIndustry(ctx, body, audit),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/platform/script',
    reply: scriptPageSchema,
    policy: READERS,
    query: scriptListQuery,
    handler: ({ query }) => listScripts(ctx, query),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/script/add',
    reply: scriptSchema,
    policy: ADMIN,
    body: scriptAddBody,
    audit: { action: 'script.add', resource: 'script', id: 'result' },
    successMessage: 'script.saved',
    handler: ({ body, audit }) => addScript(ctx, body, audit),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/script/edit',
    reply: scriptSchema,
    policy: ADMIN,
    body: scriptEditBody,
    audit: { action: 'script.edit', resource: 'script', id: ({ body }) => body.id },
    successMessage: 'script.saved',
    handler: ({ body, audit }) => editScript(ctx, body, audit),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/script/delete',
    reply: noData,
    policy: ADMIN,
    body: scriptDeleteBody,
    audit: { action: 'script.delete', resource: 'script', id: ({ body }) => body.id },
    successMessage: 'script.deleted',
    handler: ({ body, audit }) => deleteScript(ctx, body, audit),
  });
}
