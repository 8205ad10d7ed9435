import { chromium } from 'playwright';
import { writeFileSync } from 'node:fs';
const base = 'http://127.0.0.1:4700';
const path = process.argv[2] || '/account/property';
const title = process.argv[3] || 'Property';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const ctx0 = await browser.newContext();
const r = await ctx0.request.post(`${base}/api/v1/platform/login`, { data: { account: 'partner', password: 'Demo@2026' } });
const token = (await r.json()).data.userinfo.token;
await ctx0.close();
async function once(profile) {
  const context = await browser.newContext();
  await context.addInitScript(([t]) => { localStorage.setItem('locale', 'en-US'); localStorage.setItem('token', t); }, [token]);
  await context.addInitScript((title) => {
    const probe = { contentAt: null };
    Object.defineProperty(window, '__benchContent', { value: probe });
    const check = () => {
      const ok = [...document.querySelectorAll(`section[aria-label="${CSS.escape(title)}"]`)].some((s) => s.checkVisibility() && !s.querySelector('[data-loading]'));
      if (ok) probe.contentAt = performance.now(); else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, title);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (profile) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
  await page.goto(`${base}${path}`, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__benchContent?.contentAt != null, null, { timeout: 60000, polling: 50 });
  const content = await page.evaluate(() => window.__benchContent.contentAt);
  if (profile) console.log((await page.evaluate(() => performance.getEntriesByType('resource').map((e) => [e.startTime, e.responseEnd, new URL(e.name).pathname]))).filter(([, , p]) => !p.startsWith('/assets/ui-')).map(([a, b, p]) => `${a.toFixed(0).padStart(6)} → ${b.toFixed(0).padStart(6)} ${p}`).join('\n'));
  let prof = null;
  if (profile) prof = (await cdp.send('Profiler.stop')).profile;
  await context.close();
  return { content, prof };
}
await once(false);
const res = [];
for (let i = 0; i < 3; i++) res.push((await once(false)).content);
console.log('content', res.map(Math.round));
const { content, prof } = await once(true);
console.log('profiled content', Math.round(content));
writeFileSync('/tmp/prof/p.cpuprofile', JSON.stringify(prof));
// self time by url and by function
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas; 
prof.samples.forEach((id, i) => { self.set(id, (self.get(id) || 0) + (dt[i] || 0)); });
const byUrl = new Map(), byFn = new Map();
for (const [id, us] of self) { const n = byId.get(id); const u = n.callFrame.url.split('/').pop() || n.callFrame.functionName || '(native)'; byUrl.set(u, (byUrl.get(u) || 0) + us); const f = `${n.callFrame.functionName || '(anon)'} ${u}:${n.callFrame.lineNumber}`; byFn.set(f, (byFn.get(f) || 0) + us); }
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([a, b]) => `${(b / 1000).toFixed(1).padStart(7)} ms  ${a}`).join('\n');
console.log('--- by url\n' + top(byUrl, 25));
console.log('--- by fn\n' + top(byFn, 40));
await browser.close();
