import { readdirSync } from 'node:fs';
import { Agent, request } from 'undici';
const files = readdirSync('dist/assets').filter((f) => f.endsWith('.js')).slice(0, 80);
const agent = new Agent({ connections: 6 });
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  await Promise.all(files.map(async (f) => { const res = await request(`http://127.0.0.1:4700/assets/${f}`, { dispatcher: agent, headers: { 'accept-encoding': 'br' } }); await res.body.arrayBuffer(); }));
  console.log(files.length, 'files', (performance.now() - t0).toFixed(0), 'ms');
}
