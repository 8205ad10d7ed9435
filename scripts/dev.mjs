// npm run dev: the API server (tsx watch) and Vite with hot reload, Vite proxying /api to the server.
import { spawn } from 'node:child_process';

const apiPort = process.env.API_PORT ?? process.env.PORT ?? '8080';
const env = { ...process.env, PORT: apiPort, API_PORT: apiPort };
const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', 'server/main.ts'], {
    stdio: 'inherit',
    env,
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit', env }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) =>
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  }),
);
