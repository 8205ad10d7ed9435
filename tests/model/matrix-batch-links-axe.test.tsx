// @vitest-environment jsdom -- axe runs in jsdom (vitest.config.ts)
/**
 * The batch authorisation panel (links of each state, a QR code shown, the revoke dialog open)
 * and the public page of a link (valid, and a used-up one with its reason) as assistive tech
 * meets them: axe finds no serious or critical violation. (Their behaviour:
 * matrix-batch-links-view.test.tsx, batch-authorization-view.test.tsx.)
 */
import { screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { BatchLink, BatchLinkInfo } from '../../src/api/contract/matrix';
import { provideArea } from '../../src/app/actors/areas';
import { batchAuthorizationArea } from '../../src/app/actors/batch-authorization';
import { matrixArea } from '../../src/app/actors/matrix';
import { matrixBatchLinksArea } from '../../src/app/actors/matrix-batch-links';
import enUS from '../../src/i18n/en-US';
import AuthorizationPage from '../../src/views/matrix/authorization-page';
import BatchAuthorizationPage from '../../src/views/matrix/batch-authorization-page';
import { person, viewPathHooks } from './ui-paths';
import { shopAuth } from './video-task-fixtures';
import { appActors, flush, isOpen, renderAt } from './view-harness';

viewPathHooks();

const never = () => new Promise<never>(() => {});
/** A 1×1 PNG: what the QR code's image shows here. */
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function axeSerious() {
  vi.useRealTimers();
  try {
    const axe = (await import('axe-core')).default;
    const result = await axe.run(document.body);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes[0]?.html}`);
  } finally {
    vi.useFakeTimers();
  }
}

const link = (id: number, state: BatchLink['state']): BatchLink => ({
  id,
  platform: 'douyin',
  group_id: null,
  url: `https://console.example/batchAuthorization?token=tok-${id}-abcdefghijklmnop`,
  expires_at: Date.UTC(2026, 11, id),
  max_uses: id % 2 ? 10 : null,
  uses: 1,
  state,
  created_at: 0,
});

test('the batch authorisation panel, its QR code and the revoke dialog: axe finds nothing serious', async () => {
  const actors = appActors({ auth: shopAuth() });
  const rows = [link(4, 'valid'), link(3, 'expired'), link(2, 'revoked'), link(1, 'used_up')];
  provideArea(actors, matrixArea, {
    getAuthUrl: never,
    getAccounts: async () => ({ list: [], total: 0 }),
    refreshAccount: never,
    deleteAccounts: never,
    moveAccounts: never,
    getGroups: async () => ({ list: [{ id: 5, name: 'Brand', count: 0 }], ungrouped: 0 }),
    addGroup: never,
    editGroup: never,
    deleteGroup: never,
    navigate: () => {},
  });
  provideArea(actors, matrixBatchLinksArea, {
    addLink: never,
    getLinks: async () => ({ list: rows, total: rows.length }),
    revokeLink: never,
    drawQr: async () => PNG,
    download: () => {},
  });
  renderAt(actors, <AuthorizationPage />, '/matrix-distribution/authorization');
  const user = person();
  await vi.waitFor(() => screen.getByRole('button', { name: enUS['matrix.batchOpen'] }), {
    timeout: 5000,
  });
  await user.click(screen.getByRole('button', { name: enUS['matrix.batchOpen'] }));
  await flush();
  const panel = within(screen.getByTestId('batch-links-panel'));
  await user.click(panel.getByRole('button', { name: 'QR code of link #4' }));
  await flush();
  panel.getByRole('img', { name: /QR code of the batch authorisation link/ });
  expect(await axeSerious()).toEqual([]);
  await user.click(panel.getByRole('button', { name: 'Revoke link #4' }));
  await flush();
  expect(screen.getAllByRole('dialog').filter(isOpen).length).toBe(2);
  expect(await axeSerious()).toEqual([]);
  actors.dispose();
});

test('the public page of a link, valid and used up: axe finds nothing serious', async () => {
  for (const state of ['valid', 'used_up'] as const) {
    const actors = appActors({});
    provideArea(actors, batchAuthorizationArea, {
      getInfo: async () =>
        ({
          owner_name: 'Brand Shop',
          platform: 'douyin',
          state,
          expires_at: Date.UTC(2026, 11, 3),
          uses_left: state === 'valid' ? 3 : 0,
        }) satisfies BatchLinkInfo,
      getAuthUrl: never,
      navigate: () => {},
    });
    const view = renderAt(
      actors,
      <BatchAuthorizationPage />,
      '/batchAuthorization?token=tok-abcdefghijklmnop',
    );
    await vi.waitFor(() => screen.getByTestId('batch-auth-facts'), { timeout: 5000 });
    await flush();
    expect(await axeSerious()).toEqual([]);
    view.unmount();
    actors.dispose();
  }
});
