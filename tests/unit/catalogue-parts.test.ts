// @vitest-environment node
// @vitest-environment node
/**
 * The catalogue comes in parts (src/i18n/messages.ts): a page shows an id that is in none of the
 * parts it loads as the raw id, with no error anywhere. These tests read the code each part of the
 * console runs (tests/unit/message-usage.ts) and name every id it can show that its parts lack:
 * the login page (and its dialogs' schemas) against the signed-out part; the entry and the shell
 * against the signed-out and signed-in parts; each signed-in page against those and the area
 * parts it names in src/app/routes/page-views.ts.
 */
import { describe, expect, test } from 'vitest';
import enUS from '../../src/i18n/en-US';
import zhCN from '../../src/i18n/zh-CN';
import { AREA_PARTS } from '../../src/i18n/messages';
import signedOutEnUS from '../../src/i18n/signed-out-en-US';
import signedOutZhCN from '../../src/i18n/signed-out-zh-CN';
import signedInEnUS from '../../src/i18n/signed-in-en-US';
import signedInZhCN from '../../src/i18n/signed-in-zh-CN';
import moneyEnUS from '../../src/i18n/signed-in-money-en-US';
import moneyZhCN from '../../src/i18n/signed-in-money-zh-CN';
import creationEnUS from '../../src/i18n/signed-in-creation-en-US';
import creationZhCN from '../../src/i18n/signed-in-creation-zh-CN';
import digitalHumanEnUS from '../../src/i18n/signed-in-digital-human-en-US';
import digitalHumanZhCN from '../../src/i18n/signed-in-digital-human-zh-CN';
import matrixEnUS from '../../src/i18n/signed-in-matrix-en-US';
import matrixZhCN from '../../src/i18n/signed-in-matrix-zh-CN';
import domainsEnUS from '../../src/i18n/signed-in-domains-en-US';
import domainsZhCN from '../../src/i18n/signed-in-domains-zh-CN';
import batchAuthEnUS from '../../src/i18n/signed-out-batch-auth-en-US';
import batchAuthZhCN from '../../src/i18n/signed-out-batch-auth-zh-CN';
import auditEnUS from '../../src/i18n/signed-in-audit-en-US';
import auditZhCN from '../../src/i18n/signed-in-audit-zh-CN';
import systemInitEnUS from '../../src/i18n/signed-in-system-init-en-US';
import systemInitZhCN from '../../src/i18n/signed-in-system-init-zh-CN';
import settingsEnUS from '../../src/i18n/signed-in-settings-en-US';
import settingsZhCN from '../../src/i18n/signed-in-settings-zh-CN';
import aiToolEnUS from '../../src/i18n/signed-in-ai-tool-en-US';
import aiToolZhCN from '../../src/i18n/signed-in-ai-tool-zh-CN';
import contentEnUS from '../../src/i18n/signed-in-content-en-US';
import contentZhCN from '../../src/i18n/signed-in-content-zh-CN';
import { idsUsedBy, pageViews, reachedModules, src } from './message-usage';

const PARTS: Record<string, { 'en-US': object; 'zh-CN': object }> = {
  'signed-out': { 'en-US': signedOutEnUS, 'zh-CN': signedOutZhCN },
  'signed-in': { 'en-US': signedInEnUS, 'zh-CN': signedInZhCN },
  money: { 'en-US': moneyEnUS, 'zh-CN': moneyZhCN },
  creation: { 'en-US': creationEnUS, 'zh-CN': creationZhCN },
  'digital-human': { 'en-US': digitalHumanEnUS, 'zh-CN': digitalHumanZhCN },
  matrix: { 'en-US': matrixEnUS, 'zh-CN': matrixZhCN },
  domains: { 'en-US': domainsEnUS, 'zh-CN': domainsZhCN },
  'batch-auth': { 'en-US': batchAuthEnUS, 'zh-CN': batchAuthZhCN },
  audit: { 'en-US': auditEnUS, 'zh-CN': auditZhCN },
  'system-init': { 'en-US': systemInitEnUS, 'zh-CN': systemInitZhCN },
  settings: { 'en-US': settingsEnUS, 'zh-CN': settingsZhCN },
  'ai-tool': { 'en-US': aiToolEnUS, 'zh-CN': aiToolZhCN },
  content: { 'en-US': contentEnUS, 'zh-CN': contentZhCN },
};
const ALL_IDS = Object.keys(enUS);
const idsOf = (...parts: string[]) => new Set(parts.flatMap((p) => Object.keys(PARTS[p]['en-US'])));
/** Routing modules: the pages behind them are checked one by one. */
const ROUTING = [src('app/routes/page-views.ts'), src('app/routes/views.ts')];
const used = (entries: string[]) => idsUsedBy(reachedModules(entries, ROUTING), ALL_IDS);
const missing = (ids: Set<string>, have: Set<string>) => [...ids].filter((id) => !have.has(id));

describe('catalogue parts', () => {
  test('the parts are the loader’s, each complete in both locales, no id in two', () => {
    expect(Object.keys(PARTS)).toEqual(['signed-out', 'signed-in', ...AREA_PARTS]);
    let count = 0;
    for (const [name, part] of Object.entries(PARTS)) {
      expect(Object.keys(part['zh-CN']).sort(), name).toEqual(Object.keys(part['en-US']).sort());
      count += Object.keys(part['en-US']).length;
    }
    // Disjoint: together exactly the whole catalogue.
    expect(count).toBe(ALL_IDS.length);
    expect(Object.keys(zhCN).length).toBe(ALL_IDS.length);
  });

  test('every message the signed-out forms’ schemas can produce is in the signed-out part', () => {
    // The auth contract's schemas (login, sign-up, forgot password, SMS code) and the shared
    // text rules they are built from.
    const schemas = used([src('api/contract/auth.ts'), src('api/contract/text.ts')]);
    const validation = [...schemas].filter((id) => id.startsWith('validation.'));
    expect(validation).toEqual(
      expect.arrayContaining([
        'validation.passwordRule',
        'validation.smsCode',
        'validation.mobile',
        'validation.passwordMismatch',
        'validation.controlChars',
      ]),
    );
    expect(missing(schemas, idsOf('signed-out'))).toEqual([]);
  });

  test('the login page, its dialogs and the exception pages need the signed-out part only', () => {
    const login = used([src('views/login/login-page.tsx')]);
    // The dialogs load lazily from the login page: their forms are read too.
    expect(login).toContain('forgot.title');
    expect(login).toContain('register.title');
    expect(missing(login, idsOf('signed-out'))).toEqual([]);
    const exception = used([src('views/exception/exception-page.tsx')]);
    expect(missing(exception, idsOf('signed-out'))).toEqual([]);
  });

  test('the public batch authorisation page needs the signed-out part and its own only', () => {
    const page = used([src('views/matrix/batch-authorization-page.tsx')]);
    expect(page).toContain('batchAuth.authorise');
    expect(page).toContain('batchAuth.errorDeclined');
    expect(missing(page, idsOf('signed-out', 'batch-auth'))).toEqual([]);
  });

  test('the entry and the shell need the signed-out and signed-in parts only', () => {
    const shell = used([src('main.tsx'), src('app/shell/shell.tsx')]);
    expect(shell).toContain('palette.title');
    expect(missing(shell, idsOf('signed-out', 'signed-in'))).toEqual([]);
  });

  const pages = [...pageViews()];
  test('page-views.ts is read', () => {
    expect(pages.length).toBeGreaterThan(20);
    expect(Object.fromEntries(pages)).toMatchObject({
      home: { parts: [] },
      imageClone: { parts: ['creation', 'digital-human'] },
    });
  });

  test.each(pages)(
    'the %s page finds every message it can show in the parts it loads',
    (name, page) => {
      for (const part of page.parts) expect(AREA_PARTS).toContain(part);
      const ids = used([page.module]);
      expect(ids.size, `${name} shows no message?`).toBeGreaterThan(0);
      expect(missing(ids, idsOf('signed-out', 'signed-in', ...page.parts))).toEqual([]);
      // And loads no part it never shows (a page loads only what it shows).
      for (const part of page.parts) {
        expect(
          [...ids].some((id) => idsOf(part).has(id)),
          `${name} loads ${part}`,
        ).toBe(true);
      }
    },
  );

  test('the home page (login + admin home) loads no area part', () => {
    expect(pageViews().get('home')?.parts).toEqual([]);
    // The areas' parts are most of the catalogue: what admin home does not download.
    expect(idsOf(...AREA_PARTS).size).toBeGreaterThan(idsOf('signed-in').size * 3);
  });
});
