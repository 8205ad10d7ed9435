/**
 * The /domain/domainList page over the real domains area, its endpoints fakes at the HTTP
 * boundary (they wait for a step to settle them): the world of the domain form's and the brand
 * images' view paths (tests/model/domain-form-view.test.tsx, image-upload-view.test.tsx).
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { PlatformUserPage } from '../../src/api/contract/customers';
import type { Domain, DomainPage } from '../../src/api/contract/domains';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { domainsArea, type DomainsEndpoints } from '../../src/app/actors/domains';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import DomainListPage from '../../src/views/domain/domain-list-page';
import { userFixture } from './fixtures';
import { fakeEndpoints, person } from './ui-paths';
import { appActors, isOpen, renderAt } from './view-harness';

export const text = (id: MessageId, values: Record<string, string | number> = {}) =>
  enUS[id].replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));

export const ROW: Domain = {
  id: 3,
  hostname: 'old.example.com',
  owner_id: 7,
  owner_name: 'Star partner',
  name: 'Old brand',
  logo: '/logo.svg',
  favicon: '',
  copyright: '© Old',
  icp_record_number: 'ICP-1',
  police_record: 0,
  police_record_number: '',
  money_name: 'Old coins',
  theme_color: '',
  dy_auth_publish_show: 1,
  expirence_money_show: 1,
  saler_show: 1,
  status: 1,
  created_at: Date.UTC(2026, 10, 1),
  updated_at: Date.UTC(2026, 10, 1),
};
export const PARTNERS: PlatformUserPage = {
  list: [
    {
      id: 7,
      username: 'partner',
      name: 'Star partner',
      nickname: '',
      mobile: '',
      user_type: 1,
      service_id: 7,
      status: 1,
    },
  ],
  total: 1,
};
export function domainsWorld() {
  const endpoints = fakeEndpoints();
  const effects: string[] = [];
  const api: DomainsEndpoints = {
    getDomains: async (): Promise<DomainPage> => {
      effects.push('reload');
      return { list: [ROW], total: 1 };
    },
    addDomain: endpoints.endpoint('addDomain'),
    editDomain: endpoints.endpoint('editDomain'),
    deleteDomains: endpoints.endpoint('deleteDomains'),
    getPlatformUsers: async () => PARTNERS,
    uploadPlatformImage: endpoints.endpoint('uploadPlatformImage'),
  };
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture({ accountId: 1, username: 'admin', user_type: 0 }),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  provideArea(actors, domainsArea, api);
  renderAt(actors, <DomainListPage />, '/domain/domainList');
  const dialog = () => {
    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open.length, 'open dialogs').toBeLessThanOrEqual(1);
    return open.length ? within(open[0]) : null;
  };
  return {
    endpoints,
    user: person(),
    dialog,
    area: () => areasOf(actors).get(domainsArea),
    pageButton: (name: string) => screen.getByRole('button', { name, hidden: true }),
    effects: { take: () => effects.splice(0) },
    dispose: () => actors.dispose(),
  };
}
