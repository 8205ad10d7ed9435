// @vitest-environment jsdom -- axe runs in jsdom (vitest.config.ts)
/**
 * The authorised accounts page (/matrix-distribution/authorization) as assistive tech meets it:
 * the table with a row of each status, a notice, the groups, and the bind dialog open; axe finds
 * no serious or critical violation. (Its behaviour: matrix-accounts-view.test.tsx.)
 */
import { screen, within } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { MatrixAccount } from '../../src/api/contract/matrix';
import { provideArea } from '../../src/app/actors/areas';
import { matrixArea } from '../../src/app/actors/matrix';
import enUS from '../../src/i18n/en-US';
import AuthorizationPage from '../../src/views/matrix/authorization-page';
import { shopAuth } from './video-task-fixtures';
import { person, viewPathHooks } from './ui-paths';
import { appActors, flush, isOpen, renderAt } from './view-harness';

viewPathHooks();

const row = (id: number, status: MatrixAccount['status'], over: Partial<MatrixAccount> = {}) =>
  ({
    id,
    platform: 'douyin',
    open_id: `o${id}`,
    nickname: `Account ${id}`,
    avatar: `/avatar-${id}.png`,
    fans: 100 * id,
    group_id: id === 1 ? 5 : null,
    status,
    sandbox: id === 1,
    assisted: false,
    expires_at: Date.UTC(2026, 11, id),
    refresh_expires_at: Date.UTC(2027, 0, 1),
    renewals_left: 3,
    last_refresh_at: id === 2 ? null : Date.UTC(2026, 10, id),
    last_error: status === 'revoked' ? 'The owner withdrew the authorisation' : null,
    created_at: 0,
    ...over,
  }) satisfies MatrixAccount;

test('the page, a notice and the bind dialog: axe finds nothing serious', async () => {
  const actors = appActors({ auth: shopAuth() });
  const rows = [row(1, 'normal'), row(2, 'expiring'), row(3, 'expired'), row(4, 'revoked')];
  const never = () => new Promise<never>(() => {});
  provideArea(actors, matrixArea, {
    getAuthUrl: never,
    getAccounts: async () => ({ list: rows, total: rows.length }),
    refreshAccount: never,
    deleteAccounts: never,
    moveAccounts: never,
    getGroups: async () => ({ list: [{ id: 5, name: 'Brand', count: 1 }], ungrouped: 3 }),
    addGroup: never,
    editGroup: never,
    deleteGroup: never,
    navigate: () => {},
  });
  renderAt(actors, <AuthorizationPage />, '/matrix-distribution/authorization?bound=1');
  await vi.waitFor(() => screen.getByText('Account 4'), { timeout: 5000 });
  await flush();
  expect(screen.getByTestId('matrix-notice').textContent).toContain(enUS['matrix.bound']);
  const axeSerious = async () => {
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
  };
  expect(await axeSerious()).toEqual([]);
  await person().click(screen.getByRole('button', { name: enUS['matrix.bindAccount'] }));
  const dialog = screen.getAllByRole('dialog').find(isOpen)!;
  within(dialog).getByRole('combobox', { name: enUS['matrix.platform'] });
  expect(await axeSerious()).toEqual([]);
  actors.dispose();
});
