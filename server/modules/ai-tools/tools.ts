import type { Selectable } from 'kysely';
import {
  fillTemplate,
  IMITATE_TITLE_TOOL,
  IMITATE_TITLE_VARIABLES,
  templatePlaceholders,
  undeclaredPlaceholders,
  type AiTool,
  type AiToolAddParams,
  type AiToolPage,
  type AiToolTryReply,
} from '../../../src/api/contract/ai-tools';
import { formatUnits } from '../../../src/api/contract/money';
import type { AppContext } from '../../context';
import { currentAiText } from '../../integrations/ai-text';
import { IntegrationError } from '../../integrations/errors';
import { likePattern } from '../../platform/db/conditions';
import { isUniqueViolation } from '../../platform/db/errors';
import type { AiToolsTable, Executor } from '../../platform/db/schema';
import { runInTransaction } from '../../platform/db/transaction';
import type { AuditTrail } from '../../platform/http/audit-trail';
import { refuse } from '../../platform/http/errors';
import { isMessageId } from '../../platform/i18n';
import { sql } from 'kysely';

/**
 * AI tools (docs/domain.md §23): prompt templates whose `${var}` placeholders must be declared,
 * tried through the AI-text integration. Admin only (the routes' policy).
 */

type AiToolRow = Selectable<AiToolsTable>;

function toTool(row: AiToolRow): AiTool {
  return {
    id: Number(row.id),
    key: row.key,
    name: row.name,
    model: row.model,
    template: row.template,
    variables: JSON.parse(row.variables) as string[],
    unit: row.unit as AiTool['unit'],
    cost: formatUnits('money', Number(row.cost)),
    status: row.status as AiTool['status'],
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

/** "12.5" → 1250 (the contract has checked the form). */
const costUnits = (cost: string) => {
  const [whole, fraction = ''] = cost.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};

/**
 * Refuses a template that uses a variable it does not declare, naming the first such one; the
 * `imitate_title` tool's template may use only the variables its call fills.
 */
function checkTemplate(key: string, template: string, variables: readonly string[]): void {
  const [undeclared] = undeclaredPlaceholders(template, variables);
  if (undeclared !== undefined) {
    throw refuse('aiTool.undeclaredVariable', {
      name: undeclared,
      declared: variables.length ? variables.join(', ') : '—',
    });
  }
  if (key === IMITATE_TITLE_TOOL) {
    const [unfilled] = undeclaredPlaceholders(template, IMITATE_TITLE_VARIABLES);
    if (unfilled !== undefined) {
      throw refuse('aiTool.imitateVariable', {
        name: unfilled,
        allowed: IMITATE_TITLE_VARIABLES.join(', '),
      });
    }
  }
}

/** The fields of a row as an audit diff shows them. */
const audited = (tool: AiTool | AiToolAddParams) => ({
  key: tool.key,
  name: tool.name,
  model: tool.model,
  template: tool.template,
  variables: tool.variables.join(', '),
  unit: tool.unit,
  cost: tool.cost,
  status: tool.status,
});

export async function findTool(db: Executor, id: number): Promise<AiTool | null> {
  const row = await db.selectFrom('ai_tools').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toTool(row) : null;
}

/** The enabled tool of `key`, or null (docs/domain.md §23: `imitate_title`). */
export async function enabledTool(db: Executor, key: string): Promise<AiTool | null> {
  const row = await db
    .selectFrom('ai_tools')
    .selectAll()
    .where('key', '=', key)
    .where('status', '=', 'enabled')
    .executeTakeFirst();
  return row ? toTool(row) : null;
}

/** GET /ai_tool/list: in id order; `keyword` matches the key or the name. */
export async function listTools(
  ctx: AppContext,
  query: { keyword?: string | undefined; page: number; limit: number },
): Promise<AiToolPage> {
  let base = ctx.db.selectFrom('ai_tools');
  if (query.keyword) {
    const pattern = likePattern(query.keyword);
    base = base.where(({ or }) =>
      or([
        sql<boolean>`lower(key) like ${pattern} escape '\\'`,
        sql<boolean>`lower(name) like ${pattern} escape '\\'`,
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('id')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toTool), total: Number(count.n) };
}

/** POST /ai_tool/add */
export async function addTool(
  ctx: AppContext,
  body: AiToolAddParams,
  audit: AuditTrail,
): Promise<AiTool> {
  checkTemplate(body.key, body.template, body.variables);
  audit.change(null, audited(body));
  const now = ctx.now();
  try {
    const row = await runInTransaction(
      ctx.db,
      (trx) =>
        trx
          .insertInto('ai_tools')
          .values({
            key: body.key,
            name: body.name,
            model: body.model,
            template: body.template,
            variables: JSON.stringify(body.variables),
            unit: body.unit,
            cost: costUnits(body.cost),
            status: body.status,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      { audit },
    );
    return toTool(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('aiTool.keyTaken', { key: body.key });
    throw error;
  }
}

/** POST /ai_tool/edit: every field again (the form sends the whole tool). */
export async function editTool(
  ctx: AppContext,
  body: AiToolAddParams & { id: number },
  audit: AuditTrail,
): Promise<AiTool> {
  const before = await findTool(ctx.db, body.id);
  if (!before) throw refuse('aiTool.notFound');
  checkTemplate(body.key, body.template, body.variables);
  audit.change(audited(before), audited(body));
  try {
    const row = await runInTransaction(
      ctx.db,
      async (trx) => {
        const updated = await trx
          .updateTable('ai_tools')
          .set({
            key: body.key,
            name: body.name,
            model: body.model,
            template: body.template,
            variables: JSON.stringify(body.variables),
            unit: body.unit,
            cost: costUnits(body.cost),
            status: body.status,
            updated_at: ctx.now(),
          })
          .where('id', '=', body.id)
          .returningAll()
          .executeTakeFirst();
        if (!updated) throw refuse('aiTool.notFound');
        return updated;
      },
      { audit },
    );
    return toTool(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('aiTool.keyTaken', { key: body.key });
    throw error;
  }
}

/** POST /ai_tool/delete */
export async function deleteTool(
  ctx: AppContext,
  body: { id: number },
  audit: AuditTrail,
): Promise<null> {
  const before = await findTool(ctx.db, body.id);
  if (!before) throw refuse('aiTool.notFound');
  audit.change(audited(before), null);
  await runInTransaction(
    ctx.db,
    async (trx) => {
      const deleted = await trx.deleteFrom('ai_tools').where('id', '=', body.id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw refuse('aiTool.notFound');
    },
    { audit },
  );
  return null;
}

/**
 * POST /ai_tool/try: the template filled with `vars` (each placeholder's value required, a name
 * the tool does not declare refused) and run as one completion. A disabled tool may be tried (an
 * admin tries before enabling). Nothing is stored or charged.
 */
export async function tryTool(
  ctx: AppContext,
  body: { id: number; vars: Record<string, string> },
  signal?: AbortSignal,
): Promise<AiToolTryReply> {
  const tool = await findTool(ctx.db, body.id);
  if (!tool) throw refuse('aiTool.notFound');
  for (const name of Object.keys(body.vars)) {
    if (!tool.variables.includes(name)) throw refuse('aiTool.unknownVariable', { name });
  }
  for (const name of templatePlaceholders(tool.template)) {
    if ((body.vars[name] ?? '').trim() === '') throw refuse('aiTool.missingVariable', { name });
  }
  const prompt = fillTemplate(tool.template, body.vars);
  // The provider in use now (an AI text address saved by an admin switches it at once).
  const provider = await currentAiText(ctx.integrations.aiText);
  try {
    const answer = await provider.complete({ prompt, model: tool.model }, signal);
    return { answer, prompt, demonstration: provider.demonstration, provider: provider.name };
  } catch (error) {
    if (!(error instanceof IntegrationError)) throw error;
    ctx.log.warn(
      { provider: provider.name, kind: error.kind, reason: error.reasonId, err: error.message },
      'AI tool try failed',
    );
    const reasonId = isMessageId(error.reasonId) ? error.reasonId : 'aiText.reason.unavailable';
    throw refuse(reasonId, error.reasonParams);
  }
}
