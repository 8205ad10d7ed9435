// npm start: build the console when dist/ is missing or older than its sources, then run the
// API server (which serves dist/) in this same process.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'dist', 'index.html');

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
}

const sources = ['src', 'public', 'index.html', 'build', 'vite.config.ts', 'package-lock.json']
  .map((p) => join(root, p))
  .filter(existsSync);
const stale = !existsSync(built) || sources.some((p) => newest(p) > statSync(built).mtimeMs);

if (stale && process.env.SKIP_BUILD !== '1') {
  console.log('Building the console…');
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
