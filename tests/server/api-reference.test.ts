/**
 * The API reference is generated from the routes (server/platform/http/openapi.ts) and checked in as
 * docs/api.md: it must be current (`npm run docs:api` after changing a route or a contract
 * schema), and every route must say what it answers.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, routesWithoutReply } from '../../server/platform/http/openapi';
import { buildApiDocument, renderApiMarkdown } from '../../scripts/api-reference';
import { api, createTestApp, type TestApp } from './helpers';

describe('the API reference', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { config: { paymentSandbox: true } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('describes the reply of every route', () => {
    expect(t.app.apiRoutes.length).toBeGreaterThan(50);
    expect(routesWithoutReply(t.app.apiRoutes)).toEqual([]);
  });

  it('is checked in as docs/api.md, up to date (run `npm run docs:api`)', async () => {
    const generated = renderApiMarkdown(await buildApiDocument());
    const checkedIn = await readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');
    expect(checkedIn).toBe(generated);
  });

  it('is served as OpenAPI 3.1 at /api/v1/openapi.json, to anyone', async () => {
    const reply = await t.call<Record<string, unknown>>('GET', api('/openapi.json'));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    const doc = JSON.parse(reply.raw) as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { 'x-policy': unknown; 'x-audit'?: unknown; security: unknown[] }>
      >;
    };
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApi(t.app.apiRoutes))));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/platform/transfer'].post['x-policy']).toMatchObject({
      roles: ['admin', 'partner'],
    });
    expect(doc.paths['/platform/transfer'].post.security).toEqual([{ token: [] }]);
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    // The audit log's call, and what each call audits (docs/architecture.md §Audit).
    expect(doc.paths['/audit/list'].get['x-policy']).toMatchObject({ roles: ['admin', 'partner'] });
    expect(doc.paths['/recharge_card/add'].post['x-audit']).toEqual({
      action: 'card.add',
      resource: 'card',
    });
    expect(doc.paths['/platform/login'].post['x-audit']).toEqual({
      none: expect.stringContaining('session'),
    });
  });
});
