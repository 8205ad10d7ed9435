/**
 * The video data export's CSV (src/app/actors/matrix-video-data.ts `videoDataCsv`): a byte order
 * mark first (Excel reads UTF-8 Chinese), CRLF lines, the header row, one line per post in the
 * columns' order; cells with commas, quotes or line breaks quoted (quotes doubled); a text cell
 * starting with = + - @ made text with a leading ' (no formula runs).
 */
import { expect, test } from 'vitest';
import type { PlanPost } from '../../src/api/contract/matrix-plans';
import { videoDataCsv, videoDataQueryOf } from '../../src/app/actors/matrix-video-data';

const post = (id: number, over: Partial<PlanPost>): PlanPost => ({
  id,
  plan_id: 5,
  account_id: 1,
  media: { type: 'resource', id: 31, name: 'Clip' },
  title: 'Hello',
  scheduled_at: 0,
  status: 'published',
  reason: null,
  share_url: 'https://v.example/1',
  published_at: 1000,
  assisted: null,
  metrics: { plays: 10, likes: 2, comments: 1, shares: 0 },
  ...over,
});

const options = {
  headers: ['发布时间', '账号', '计划', '标题', '播放', '点赞', '评论', '分享', '链接'],
  formatTime: (ms: number) => `T${ms}`,
  accountName: (id: number) => (id === 1 ? '店铺A' : `#${id}`),
  planName: (id: number) => (id === 5 ? '春季' : `#${id}`),
};

test('a BOM, the header row and one CRLF line per post, in the columns’ order', () => {
  const csv = videoDataCsv([post(1, {}), post(2, { account_id: 9, share_url: null })], options);
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  expect(csv.slice(1).split('\r\n')).toEqual([
    '发布时间,账号,计划,标题,播放,点赞,评论,分享,链接',
    'T1000,店铺A,春季,Hello,10,2,1,0,https://v.example/1',
    'T1000,#9,春季,Hello,10,2,1,0,',
    '',
  ]);
});

test('no rows: the header row alone', () => {
  expect(videoDataCsv([], options)).toBe(
    '\uFEFF发布时间,账号,计划,标题,播放,点赞,评论,分享,链接\r\n',
  );
});

test('commas, quotes and line breaks are quoted, quotes doubled', () => {
  const line = (title: string) =>
    videoDataCsv([post(1, { title })], options)
      .slice(1)
      .split('\r\n')[1];
  expect(line('a,b')).toBe('T1000,店铺A,春季,"a,b",10,2,1,0,https://v.example/1');
  expect(line('say "hi"')).toBe('T1000,店铺A,春季,"say ""hi""",10,2,1,0,https://v.example/1');
  expect(videoDataCsv([post(1, { title: 'one\ntwo' })], options)).toContain('"one\ntwo"');
  expect(videoDataCsv([post(1, { title: 'one\rtwo' })], options)).toContain('"one\rtwo"');
  // A time with a comma (en-US "11/27/26, 4:00 AM") is quoted too.
  expect(
    videoDataCsv([post(1, {})], { ...options, formatTime: () => '11/27/26, 4:00 AM' }),
  ).toContain('\r\n"11/27/26, 4:00 AM",');
});

test.each(['=1+1', '+1', '-1', '@SUM(A1)'])(
  "a cell starting like a formula (%s) gets a leading '",
  (title) => {
    const line = videoDataCsv([post(1, { title })], options)
      .slice(1)
      .split('\r\n')[1];
    expect(line.split(',')[3]).toBe(`'${title}`);
  },
);

test('a formula with a comma is both made text and quoted', () => {
  const csv = videoDataCsv([post(1, { title: '=HYPERLINK("x",1)' })], options);
  expect(csv).toContain(`,"'=HYPERLINK(""x"",1)",`);
  // Account and plan names too.
  const named = videoDataCsv([post(1, {})], {
    ...options,
    accountName: () => '-A',
    planName: () => '@B',
  });
  expect(named).toContain(",'-A,'@B,");
});

test('numbers are written as they are (not made text)', () => {
  const csv = videoDataCsv(
    [post(1, { metrics: { plays: 1234567, likes: 0, comments: 0, shares: 0 } })],
    options,
  );
  expect(csv).toContain(',1234567,0,0,0,');
});

test('the query: the period ending now, an account and a plan only when chosen', () => {
  const day = 24 * 3600_000;
  expect(videoDataQueryOf({ period: 30, accountId: null, planId: null }, 100 * day)).toEqual({
    from: 70 * day,
    to: 100 * day,
  });
  expect(videoDataQueryOf({ period: 7, accountId: 3, planId: 4 }, 100 * day)).toEqual({
    account_id: 3,
    plan_id: 4,
    from: 93 * day,
    to: 100 * day,
  });
});
