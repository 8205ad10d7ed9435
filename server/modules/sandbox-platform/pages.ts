import { createHash } from 'node:crypto';

/**
 * The sandbox platform's pages (self-contained HTML, zh-CN, no script): the authorisation page,
 * a post's share page, a refusal, and the accounts' avatars (SVG).
 */

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const STYLE = `body{font-family:system-ui,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f3f5;color:#1d2129;margin:0;padding:40px 16px}
main{max-width:460px;margin:0 auto;background:#fff;border-radius:8px;padding:24px 28px;box-shadow:0 2px 8px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 8px}.badge{display:inline-block;background:#fff7e8;color:#d25f00;border:1px solid #ffcf8b;border-radius:4px;padding:2px 8px;font-size:13px;margin:0 0 12px}
.hint{color:#4e5969;font-size:14px;margin:0 0 16px}ul{list-style:none;margin:0;padding:0}
li{display:flex;align-items:center;gap:12px;padding:10px 0;border-top:1px solid #e5e6eb}
li img{width:40px;height:40px;border-radius:50%}li .name{flex:1}li form{margin:0}
button{padding:6px 18px;font-size:15px;border:0;border-radius:4px;background:#fe2c55;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #1d2129;outline-offset:2px}`;

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${STYLE}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

const SCOPE_NAMES: Readonly<Record<string, string>> = {
  user_info: '获取你的公开信息（昵称、头像）',
  'video.create': '代你发布视频',
  'video.data': '查看你的视频数据',
  'video.list': '查看你的视频列表',
};

export interface ConnectPage {
  /** Where the form posts. */
  action: string;
  accounts: readonly { open_id: string; nickname: string; avatar: string }[];
  fields: { client_key: string; redirect_uri: string; state: string; scope: string };
}

export function connectPage({ action, accounts, fields }: ConnectPage): string {
  const hidden = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('');
  const scopes = fields.scope
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => `<li>${escapeHtml(SCOPE_NAMES[s] ?? s)}</li>`)
    .join('');
  const items = accounts
    .map(
      (a, i) => `<li>
<img src="${escapeHtml(a.avatar)}" alt="">
<span class="name" id="account-${i}">${escapeHtml(a.nickname)}</span>
<form method="post" action="${escapeHtml(action)}">
${hidden}<input type="hidden" name="open_id" value="${escapeHtml(a.open_id)}">
<button type="submit" aria-describedby="account-${i}">授权</button>
</form>
</li>`,
    )
    .join('\n');
  return document(
    '授权登录 · 抖音测试平台（沙箱）',
    `<h1>授权登录</h1>
<p class="badge">测试平台（沙箱）</p>
<p class="hint">这是模拟抖音开放平台的测试平台：下列账号都是测试账号，发布的内容不会出现在真实的抖音上。</p>
<p class="hint">应用请求以下权限：</p>
<ul class="scopes">${scopes}</ul>
<h2 class="hint">选择要授权的测试账号：</h2>
<ul aria-label="测试账号">
${items}
</ul>`,
  );
}

export function refusalPage(message: string): string {
  return document(
    '无法授权 · 抖音测试平台（沙箱）',
    `<h1>无法授权</h1>
<p class="badge">测试平台（沙箱）</p>
<p class="hint" role="alert">${escapeHtml(message)}</p>`,
  );
}

export function sharePage(post: { title: string; nickname: string; createdAt: string }): string {
  return document(
    `${post.title} · 抖音测试平台（沙箱）`,
    `<h1>${escapeHtml(post.title)}</h1>
<p class="badge">测试平台（沙箱）</p>
<p class="hint">发布者：${escapeHtml(post.nickname)} · ${escapeHtml(post.createdAt)}</p>
<p class="hint">这是测试平台上的视频，仅用于测试发布流程。</p>`,
  );
}

const COLORS = ['#fe2c55', '#25f4ee', '#7b61ff', '#ff7d00', '#00b42a', '#165dff'];

export function avatarSvg(nickname: string, openId: string): string {
  const color = COLORS[createHash('sha256').update(openId).digest()[0] % COLORS.length];
  const letter = escapeHtml(Array.from(nickname)[0] ?? '?');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><circle cx="48" cy="48" r="48" fill="${color}"/><text x="48" y="62" font-size="44" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`;
}
