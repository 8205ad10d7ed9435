// @vitest-environment node
import { describe, expect, test, vi } from 'vitest';
import { validationMessages } from '../../src/api/contract/messages';
import enUS from '../../src/i18n/en-US';
import zhCN from '../../src/i18n/zh-CN';
import { messagesFor } from '../../src/i18n/messages';
import signedInZhCN from '../../src/i18n/signed-in-zh-CN';
import signedOutZhCN from '../../src/i18n/signed-out-zh-CN';

describe('catalogues', () => {
  test('zh-CN and en-US have the same ids, none empty', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(enUS).sort());
    for (const [id, text] of [...Object.entries(enUS), ...Object.entries(zhCN)]) {
      expect(text.trim(), id).not.toBe('');
    }
  });

  test('the shared validation messages exist in both locales', () => {
    expect(Object.keys(validationMessages['zh-CN']).sort()).toEqual(
      Object.keys(validationMessages['en-US']).sort(),
    );
  });

  test('zh-CN texts are Chinese where the spec gives the English text', () => {
    // Spec §5 / §8 texts, and their zh-CN counterparts.
    expect(enUS['validation.usernameRequired']).toBe('Username cannot be empty');
    expect(enUS['session.confirmLogoutTitle']).toBe('Confirm logout');
    expect(enUS['session.relogin']).toBe('Re-Login');
    expect(enUS['exception.403']).toBe('Access to this resource on the server is denied');
    expect(enUS['exception.404']).toBe('Whoops, this page is gone');
    expect(enUS['exception.500']).toBe('Internal server error');
    expect(enUS['login.error']).toBe('Login error, refresh and try again');
    expect(zhCN['http.loginExpired']).toMatch(/[\u4e00-\u9fa5]/);
  });

  test('zh-CN wording says what is meant', () => {
    // The tree is driven by the arrow keys: "右键/左键" reads as the right/left mouse button.
    expect(zhCN['customers.treeHelp']).toMatch(/方向键/);
    expect(zhCN['customers.treeHelp']).not.toMatch(/[左右]键/);
    // Logging in as a merchant on its behalf is allowed: "越权" reads as "without authority".
    expect(zhCN['overstep.banner']).toContain('代登录');
    expect(Object.values(zhCN).join('\n')).not.toContain('越权');
  });

  test('the clip editor is headed with its menu’s name (smart clipping), not mixed-cut', () => {
    for (const texts of [enUS, zhCN]) {
      expect(texts['route.mixedshear'].startsWith(texts['route.clip'])).toBe(true);
      expect(texts['route.mixedshear']).not.toBe(texts['route.clip']); // its tab is told apart
    }
    expect(enUS['route.mixedshear']).not.toMatch(/mixed/i);
    expect(zhCN['route.mixedshear']).not.toContain('混剪');
  });

  test('each locale gets its own catalogue', () => {
    expect(messagesFor('zh-CN')).toEqual(zhCN);
    expect(messagesFor('en-US')).toEqual(enUS);
  });

  test('a signed-out visitor gets the signed-out part; a session the shell’s, a page its area’s, a switch all of those', async () => {
    vi.resetModules();
    const fresh = await import('../../src/i18n/messages');
    await fresh.loadMessages('zh-CN');
    const signedOut = fresh.messagesFor('zh-CN');
    expect(signedOut['login.error']).toBe(zhCN['login.error']);
    expect(signedOut['exception.404']).toBe(zhCN['exception.404']);
    expect(signedOut['validation.passwordRule']).toBe(zhCN['validation.passwordRule']);
    expect(signedOut).not.toHaveProperty('cards.list');
    // The digital-human forms' validation texts come with their pages, not with the login page.
    expect(signedOut).not.toHaveProperty('validation.cloneName');
    const changed = vi.fn();
    fresh.subscribeMessages(changed);
    await fresh.loadMessages('zh-CN'); // loaded already: the same object, no change
    expect(fresh.messagesFor('zh-CN')).toBe(signedOut);
    expect(changed).not.toHaveBeenCalled();

    await fresh.loadSignedInMessages('zh-CN');
    expect(changed).toHaveBeenCalledTimes(1);
    const session = fresh.messagesFor('zh-CN');
    expect(session).toEqual({ ...signedOutZhCN, ...signedInZhCN });
    expect(session).not.toHaveProperty('dhClones.audioRule');
    expect(session).not.toHaveProperty('validation.cloneName');

    // A digital-human page: its parts arrive, react-intl gets a new catalogue once.
    await fresh.loadMessageParts(['creation', 'digital-human'], 'zh-CN');
    expect(changed).toHaveBeenCalledTimes(2);
    const withPage = fresh.messagesFor('zh-CN');
    expect(withPage['validation.cloneName']).toBe(zhCN['validation.cloneName']);
    expect(withPage['taskForm.new']).toBe(zhCN['taskForm.new']);
    expect(withPage).not.toHaveProperty('cards.list');
    await fresh.loadMessageParts(['digital-human'], 'zh-CN'); // in already
    expect(fresh.messagesFor('zh-CN')).toBe(withPage);
    expect(changed).toHaveBeenCalledTimes(2);

    // A locale switch during the session: every part in use, in the other locale.
    await fresh.loadMessages('en-US');
    const switched = fresh.messagesFor('en-US');
    expect(Object.keys(switched).sort()).toEqual(Object.keys(withPage).sort());
    expect(switched['validation.cloneName']).toBe(enUS['validation.cloneName']);
    // Every part: the whole catalogue.
    await fresh.loadMessageParts(fresh.AREA_PARTS, 'en-US');
    expect(fresh.messagesFor('en-US')).toEqual(enUS);
    vi.resetModules();
  });
});
