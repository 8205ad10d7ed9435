import type { Kysely } from 'kysely';
import { addIdColumn, type Engine } from '../dialect';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's types */
type AnyDb = Kysely<any>;

/**
 * AI tools, industries and scripts (docs/domain.md §23):
 * - `ai_tools`: a prompt template per unique `key`, its declared variables (a JSON array of names),
 *   model ('' = the integration's), unit, cost (minor units), status. Seeded with the platform's
 *   default `imitate_title` tool: the prompt `/matrix/ai_imitate_title` sent before tools existed.
 * - `industries`: two levels (`parent_id` 0 for a top-level one); a name is unique among its
 *   siblings.
 * - `scripts`: spoken copy, titles and topics, each of one industry.
 */
export const IMITATE_TITLE_TEMPLATE = [
  'Write ${count} new titles for a ${platform} short video in the manner of the title below, in the same language.',
  'Each title at most ${max_length} characters, one line, no emoji, no hashtags; all different from each other and from the original.',
  'Original title: ${title}',
].join('\n');

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  await addIdColumn(db.schema.createTable('ai_tools'), engine)
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('variables', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('cost', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  const now = Date.now();
  await db
    .insertInto('ai_tools')
    .values({
      key: 'imitate_title',
      name: 'AI 仿写标题',
      model: '',
      template: IMITATE_TITLE_TEMPLATE,
      variables: JSON.stringify(['title', 'count', 'max_length', 'platform']),
      unit: 'call',
      cost: 0,
      status: 'enabled',
      created_at: now,
      updated_at: now,
    })
    .execute();

  await addIdColumn(db.schema.createTable('industries'), engine)
    .addColumn('parent_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('industries_parent_name_idx')
    .unique()
    .on('industries')
    .columns(['parent_id', 'name'])
    .execute();

  await addIdColumn(db.schema.createTable('scripts'), engine)
    .addColumn('industry_id', 'bigint', (c) => c.notNull().references('industries.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scripts_industry_idx')
    .on('scripts')
    .columns(['industry_id', 'kind', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('scripts').execute();
  await db.schema.dropTable('industries').execute();
  await db.schema.dropTable('ai_tools').execute();
}
