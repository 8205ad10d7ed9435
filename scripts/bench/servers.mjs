// Bench servers: the product as `npm start` serves it (on a fresh build in a temp dir, a temp
// DATA_DIR and a free port) and the floor page (a bare React 19 form) served the same way
// (Fastify static files + the same brotli/gzip compression).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname;
const viteBin = join(root, 'node_modules', 'vite', 'bin', 'vite.js');

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `vite build` of the console in `source` (a checkout) into `outDir`. */
export function buildProduct(source, outDir) {
  const result = spawnSync(
    process.execPath,
    [viteBin, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: source, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error('building the console failed');
}

async function waitForUrl(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms`);
}

/** `npm start` (scripts/start.mjs of `source`) on `staticDir`, a fresh `dataDir`, a free port. */
export async function startProduct({ source, staticDir, dataDir }) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(source, 'scripts', 'start.mjs')], {
    cwd: source,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      SKIP_BUILD: '1',
      DEMO: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  // Never outlive the bench, even when it crashes.
  const killChild = () => child.kill();
  process.once('exit', killChild);
  try {
    await waitForUrl(`${base}/api/v1/platform/get_system_info?domain=127.0.0.1`, child, 120_000);
    await waitForUrl(`${base}/login`, child, 10_000);
  } catch (error) {
    child.kill();
    throw error;
  }
  return {
    base,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const FLOOR_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Floor</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/main.jsx"></script>
  </body>
</html>
`;

const FLOOR_MAIN = `import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function LoginForm() {
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  return (
    <form onSubmit={(e) => e.preventDefault()} style={{ maxWidth: 320, margin: '64px auto' }}>
      <h1>Login</h1>
      <p>
        <label>
          Account <input value={account} onChange={(e) => setAccount(e.target.value)} />
        </label>
      </p>
      <p>
        <label>
          Password{' '}
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
      </p>
      <button type="submit">Login</button>
    </form>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <LoginForm />
  </StrictMode>,
);
`;

/** The floor: a bare React 19 page with one form, built with Vite into `dir`/dist. */
export async function buildFloor(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), FLOOR_HTML);
  writeFileSync(join(dir, 'main.jsx'), FLOOR_MAIN);
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(dir, 'dist'), emptyOutDir: true },
  });
  return join(dir, 'dist');
}

/** Serves `dist` like the product's server: static files, br/gzip, SPA fallback to index.html. */
export async function serveFloor(dist) {
  const { default: Fastify } = await import('fastify');
  const { default: compress } = await import('@fastify/compress');
  const { default: fastifyStatic } = await import('@fastify/static');
  const app = Fastify({ logger: false });
  await app.register(compress, { global: true, encodings: ['br', 'gzip'] });
  await app.register(fastifyStatic, { root: dist, prefix: '/' });
  app.setNotFoundHandler((_request, reply) => reply.sendFile('index.html'));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { base: `http://127.0.0.1:${port}`, stop: () => app.close() };
}
