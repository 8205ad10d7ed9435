/**
 * The world of the card path tests (cards-*-view.test.tsx): the real /promotion/card-password page
 * over the real cards area (src/app/actors/cards.ts) whose endpoints are fakes (`provideArea`).
 * The calls a path steps through (add, transfer, use, export ticket) stay pending until a step
 * settles them; the list and the user searches answer at once. What the area does besides the
 * dialogs is recorded as effects: each list load (`reload`, with the batch filter if any) and
 * each download handed to the browser.
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { CardListReply, CardRow } from '../../src/api/contract/cards';
import type { PlatformUserPage } from '../../src/api/contract/customers';
import { areasOf, provideArea } from '../../src/app/actors/areas';
import { cardsArea, type CardsEndpoints } from '../../src/app/actors/cards';
import enUS, { type MessageId } from '../../src/i18n/en-US';
import { authMachine } from '../../src/machines/auth';
import CardPasswordPage from '../../src/views/promotion/card-password-page';
import { replyError, userFixture } from './fixtures';
import { fakeEndpoints, person } from './ui-paths';
import { appActors, BRANDING, isOpen, renderAt } from './view-harness';

export const MONEY = BRANDING.money_name;

/** A message of the en-US catalogue with its simple `{name}` values filled in. */
export function text(id: MessageId, values: Record<string, string | number> = {}): string {
  return enUS[id].replace(/\{(\w+)\}/g, (_, key: string) => String(values[key]));
}

function card(id: number, cardNo: string): CardRow {
  return {
    id,
    card_no: cardNo,
    card_pwd: 'ABCD2345EFGH6789',
    pwd_masked: false,
    batch_no: 'BP261122000001',
    asset: 'money',
    face_value: '50.00',
    price: '45.00',
    status: 0,
    expired: false,
    expire_at: null,
    service_id: 1,
    creator_id: 7,
    creator_username: 'partner',
    owner_id: 7,
    owner_username: 'partner',
    used_by: null,
    used_by_username: null,
    used_at: null,
    remark_admin: '',
    remark_owner: '',
    created_at: Date.UTC(2026, 10, 22),
    updated_at: Date.UTC(2026, 10, 22),
  };
}

export const CARDS: CardListReply = {
  list: [card(11, 'P261122000011'), card(12, 'P261122000012')],
  total: 2,
};

export const USERS: PlatformUserPage = {
  list: [
    {
      id: 5,
      username: 'merchant',
      name: 'Morning shop',
      nickname: '',
      mobile: '',
      user_type: 2,
      service_id: 2,
      status: 1,
    },
  ],
  total: 1,
};

/** A partner (it pays for its cards and may redeem) or an admin (its cards are minted). */
export type Role = 'partner' | 'admin';

const never = () => new Promise<never>(() => {});

/** The card page for a signed-in `role`, on fake endpoints. */
export function cardsWorld(role: Role = 'partner') {
  const endpoints = fakeEndpoints();
  const effects: string[] = [];
  let keys = 0;
  const world = {
    /** The next download handed to the browser throws (the browser refused it). */
    refuseDownload: false,
  };
  const api: CardsEndpoints = {
    getCards: async (query) => {
      effects.push(query.batch_no ? `reload batch ${query.batch_no}` : 'reload');
      return CARDS;
    },
    addCards: endpoints.endpoint('addCards'),
    transferCards: endpoints.endpoint('transferCards'),
    useCard: endpoints.endpoint('useCard'),
    editCard: never,
    remarkCards: never,
    deleteCards: never,
    requestExportTicket: endpoints.endpoint('requestExportTicket'),
    download: (ticket) => {
      effects.push(`download ${ticket}`);
      if (world.refuseDownload) throw replyError('The browser refused the download', 'transport');
    },
    getPlatformUsers: async () => USERS,
    newIdempotencyKey: () => `key-${(keys += 1)}`,
  };
  const auth = createActor(
    authMachine.provide({
      actors: {
        getUserInfo: fromPromise(async () =>
          userFixture(
            role === 'partner'
              ? { accountId: 7, username: 'partner', nickname: 'Partner', user_type: 1 }
              : { accountId: 1, username: 'admin', user_type: 0 },
          ),
        ),
      },
    }),
    { input: { tokenKind: 'local' } },
  ).start();
  const actors = appActors({ auth });
  provideArea(actors, cardsArea, api);
  renderAt(actors, <CardPasswordPage />, '/promotion/card-password');

  /** The open dialog titled `title`, or null when none is open. */
  const dialog = (title: string) => {
    const open = screen.queryAllByRole('dialog').filter(isOpen);
    expect(open.length, 'open dialogs').toBeLessThanOrEqual(1);
    if (open.length === 0) return null;
    const d = within(open[0]);
    d.getByRole('heading', { name: title });
    return d;
  };

  return Object.assign(world, {
    endpoints,
    actors,
    user: person(),
    dialog,
    /** The cards area's actors (to name the state a step left; never the expectation). */
    area: () => areasOf(actors).get(cardsArea),
    /** The page's own buttons (hidden from the accessibility tree while a dialog is open). */
    pageButton: (name: string | RegExp) => screen.getByRole('button', { name, hidden: true }),
    effects: {
      take: () => effects.splice(0),
    },
    dispose: () => actors.dispose(),
  });
}

export type CardsWorld = ReturnType<typeof cardsWorld>;

/** A dialog's footer buttons (its close button aside), by accessible name. */
export function footerButtons(d: ReturnType<typeof within>): string[] {
  const buttons: HTMLElement[] = d.getAllByRole('button');
  return buttons
    .filter((b) => b.getAttribute('data-part') !== 'close-trigger')
    .filter((b) => b.getAttribute('data-scope') !== 'date-picker')
    .map((b) => b.textContent ?? '');
}

/** How the path tests name a settling call in their tables. */
export const settleLabel = (event: { type: string }) =>
  event.type.replace(/^xstate\./, '').replace(/^(done|error)\.actor\./, '$1 ');

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A field by its label (a required field's label ends with its `*`); a select reads the same. */
export function field(d: ReturnType<typeof within>, label: string, role = 'textbox') {
  const name = new RegExp(`^${escapeRegExp(label)}\\s*\\*?$`);
  return d.getByRole(role, { name }) as HTMLInputElement;
}
