import { describe, expect, it } from 'vitest';
import { diffOf, maskMobile, mergeDiff, pickFields } from '../../server/platform/http/audit-diff';

describe('the audit diff', () => {
  it('keeps only the fields an edit changed, with their values before and after', () => {
    expect(
      diffOf({ name: 'Old', remark: 'same', status: 1 }, { name: 'New', remark: 'same' }),
    ).toEqual({ name: { before: 'Old', after: 'New' } });
  });

  it('lists every field of a creation (after only) and of a deletion (before only)', () => {
    expect(diffOf(null, { name: 'A', group_id: null, skipped: undefined })).toEqual({
      name: { after: 'A' },
      group_id: { after: null },
    });
    expect(diffOf({ name: 'A' }, null)).toEqual({ name: { before: 'A' } });
  });

  it('shows secrets only as "changed", whatever their name', () => {
    const secrets = {
      password: 'Plain#2026',
      password_hash: '$argon2id$v=19$abc',
      card_pwd: 'ABCD1234EFGH5678',
      token: 't0k3n',
      api_key: 'k',
      client_secret: 's',
      code: '123456',
      sign: 'ff00',
    };
    const diff = diffOf(null, secrets);
    expect(diff).toEqual(Object.fromEntries(Object.keys(secrets).map((k) => [k, 'changed'])));
    expect(JSON.stringify(diffOf(secrets, { password: 'Other#2026' }))).not.toContain('2026');
    // A field the declaration names secret.
    expect(diffOf(null, { remark: 'x' }, ['remark'])).toEqual({ remark: 'changed' });
    // Not every name that contains a secret word: `keyword`, `error_code` is not a field here.
    expect(diffOf(null, { keyword: 'x' })).toEqual({ keyword: { after: 'x' } });
  });

  it('masks mobiles like 138****1234', () => {
    expect(maskMobile('13812341234')).toBe('138****1234');
    expect(maskMobile('123')).toBe('****');
    expect(maskMobile('')).toBe('');
    expect(maskMobile(null)).toBe(null);
    expect(diffOf({ mobile: '13812341234' }, { mobile: '13998765432' })).toEqual({
      mobile: { before: '138****1234', after: '139****5432' },
    });
    expect(diffOf({ mobile: '13812341234' }, { mobile: null })).toEqual({
      mobile: { before: '138****1234', after: null },
    });
  });

  it('merges two reports of one call: first before, last after; a secret stays "changed"', () => {
    const merged = mergeDiff(
      { name: { before: 'A', after: 'B' }, password: 'changed' },
      { name: { before: 'B', after: 'C' }, status: { after: 1 } },
    );
    expect(merged).toEqual({
      name: { before: 'A', after: 'C' },
      password: 'changed',
      status: { after: 1 },
    });
  });

  it('keeps only the fields a declaration names', () => {
    expect(pickFields({ a: { after: 1 }, b: { after: 2 } }, ['b'])).toEqual({ b: { after: 2 } });
    expect(pickFields({ a: { after: 1 } }, undefined)).toEqual({ a: { after: 1 } });
  });
});
