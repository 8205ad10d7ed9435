import { createHash, randomBytes } from 'node:crypto';

/**
 * The sandbox platform's rules (pure): lifetimes, the review period, the demo accounts, and the
 * posts' numbers, which grow deterministically from the post's id and its age (no randomness:
 * the same post at the same sandbox time always has the same numbers).
 */

const SECOND = 1000;
const DAY = 86_400 * SECOND;

export const CODE_TTL_MS = 10 * 60 * SECOND;
/** Douyin's `expires_in` of an access token: 15 days. */
export const ACCESS_TTL_S = 15 * 86_400;
/** `refresh_expires_in`: 30 days. */
export const REFRESH_TTL_S = 30 * 86_400;
/** Renewals of a refresh token per authorisation; the next answers 10020. */
export const MAX_RENEWALS = 5;
/** A new post is under review for this long (sandbox time), then published. */
export const REVIEW_MS = 60 * SECOND;
/** The largest video the sandbox takes in one upload_video call (Douyin's: 128 MB). */
export const MAX_VIDEO_BYTES = 128 * 1024 * 1024;
/** video_list: at most this many per page. */
export const MAX_PAGE = 20;

/** Douyin's error codes the sandbox answers with. */
export const CODES = {
  /** An unknown or wrong client_key / client_secret. */
  badClient: 10013,
  /** An unknown, used or expired authorisation code. */
  badCode: 10007,
  accessExpiredOauth: 10008,
  refreshExpired: 10010,
  renewalsUsed: 10020,
  invalidToken: 2190002,
  accessExpired: 2190008,
  badParameter: 2100005,
  videoMissing: 2190007,
  videoTooLarge: 2190006,
  videoUnreadable: 2190005,
} as const;

export const DESCRIPTIONS: Readonly<Record<number, string>> = {
  [CODES.badClient]: 'client_key 或 client_secret 错误',
  [CODES.badCode]: '授权码无效或已过期',
  [CODES.accessExpiredOauth]: 'access_token 已过期',
  [CODES.refreshExpired]: 'refresh_token 已过期或无效',
  [CODES.renewalsUsed]: 'refresh_token 刷新次数已用完，请重新授权',
  [CODES.invalidToken]: 'access_token 无效或授权已取消',
  [CODES.accessExpired]: 'access_token 已过期',
  [CODES.badParameter]: '参数不合法',
  [CODES.videoMissing]: '视频不存在',
  [CODES.videoTooLarge]: '视频文件过大',
  [CODES.videoUnreadable]: '视频文件无法解析',
  2190001: '调用频率超出限制',
  2113001: '内容违规，发布失败',
  2111001: '文案包含违规内容',
  2100004: '系统繁忙，请稍后重试',
  10001: '系统错误',
};

export const descriptionOf = (code: number) => DESCRIPTIONS[code] ?? `错误 ${code}`;

/** The demo accounts, seeded on first use. */
export const DEMO_ACCOUNTS: readonly { open_id: string; nickname: string; fans: number }[] = [
  { open_id: 'sbx_open_01', nickname: '小鹿爱剪辑', fans: 12_860 },
  { open_id: 'sbx_open_02', nickname: '阿杰的美食日记', fans: 58_310 },
  { open_id: 'sbx_open_03', nickname: '城市探店君', fans: 3_472 },
  { open_id: 'sbx_open_04', nickname: '萌宠小分队', fans: 104_905 },
  { open_id: 'sbx_open_05', nickname: '旅行的意义', fans: 7_718 },
  { open_id: 'sbx_open_06', nickname: '健身打卡王', fans: 22_045 },
];

export const avatarPath = (openId: string) => `/avatar/${openId}.svg`;

const token = (prefix: string, bytes = 20) => `${prefix}${randomBytes(bytes).toString('hex')}`;
export const newCode = () => token('sbxcode.', 16);
export const newAccessToken = () => token('act.');
export const newRefreshToken = () => token('rft.');
export const newGrantId = () => token('', 12);
export const newVideoId = () => token('v0', 12);
/** Douyin's item ids look like `@9VwKzuuES8gmaXS6...`. */
export const newItemId = () => `@sbx${randomBytes(12).toString('base64url')}`;
export const newLogId = () =>
  `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(8).toString('hex').toUpperCase()}`;

function hashNumbers(itemId: string): number[] {
  const digest = createHash('sha256').update(itemId).digest();
  return [0, 4, 8, 12].map((at) => digest.readUInt32BE(at));
}

export interface Statistics {
  play_count: number;
  digg_count: number;
  comment_count: number;
  share_count: number;
}

/**
 * The numbers of a post published at `publishedAt`, at sandbox time `now`: zero under review,
 * then growing with each full hour since publication (never shrinking).
 */
export function statisticsOf(itemId: string, publishedAt: number | null, now: number): Statistics {
  if (publishedAt === null || now < publishedAt) {
    return { play_count: 0, digg_count: 0, comment_count: 0, share_count: 0 };
  }
  const hours = Math.floor((now - publishedAt) / 3_600_000);
  const [a, b, c, d] = hashNumbers(itemId);
  const plays = (20 + (a % 180)) * (hours + 1) + (a % 13) * hours * hours;
  return {
    play_count: plays,
    digg_count: Math.floor((plays * (3 + (b % 9))) / 100),
    comment_count: Math.floor((plays * (1 + (c % 4))) / 400),
    share_count: Math.floor((plays * (1 + (d % 5))) / 500),
  };
}

/** The fans of the last 7 days, ending with the account's current count. */
export function fansHistory(openId: string, fans: number, now: number) {
  const [a] = hashNumbers(openId);
  const daily = 1 + (a % 40);
  return Array.from({ length: 7 }, (_, i) => {
    const back = 6 - i;
    const date = new Date(now - back * DAY + 8 * 3_600_000).toISOString().slice(0, 10);
    return {
      date,
      total_fans: Math.max(0, fans - back * daily),
      new_fans: fans - back * daily > 0 ? daily : 0,
    };
  });
}
