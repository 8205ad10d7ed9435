import os from 'node:os';
import { expect } from 'vitest';
import type { TestApp } from './helpers';

/**
 * A failed output's or video's detail as a person may read it (server/platform/jobs/failure-detail.ts):
 * there, no absolute path (neither DATA_DIR nor the temp dir), no URL, no raw dump (a few lines),
 * and the inputs named as their owner knows them.
 */
export function expectReadableDetail(
  detail: string | null | undefined,
  t: TestApp,
  names: readonly string[] = [],
): void {
  expect(detail, 'a detail').toBeTruthy();
  const text = detail!;
  expect(text).not.toContain(t.app.ctx.config.dataDir);
  expect(text).not.toContain(os.tmpdir());
  expect(text, 'an absolute path').not.toMatch(/(^|[\s'"(=[,])\/[^\s/]+\//);
  expect(text, 'a URL').not.toMatch(/https?:\/\/|X-Amz-/i);
  expect(text, 'a memory address').not.toMatch(/0x[0-9a-f]{8,}/i);
  expect(text.split('\n').length, text).toBeLessThanOrEqual(3);
  for (const name of names) expect(text).toContain(`“${name}”`);
}
