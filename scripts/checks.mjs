/**
 * The static checks of `npm test` at once: ESLint, Prettier, the file checks, knip, TypeScript
 * and the machine docs. Each is one process on one core; run side by side on a 2-core machine
 * they take about as long as TypeScript alone (docs/decisions.md "Tests"). Each command's output
 * is printed when it ends; the exit code is non-zero when any failed.
 */
import { spawn } from 'node:child_process';

const CHECKS = [
  ['tsc', '-p', 'tsconfig.json', '--noEmit'],
  ['eslint', '.', '--max-warnings=0'],
  ['prettier', '--check', '.'],
  ['tsx', 'scripts/check-files.ts'],
  ['knip'],
  ['tsx', 'scripts/docs-machines.ts', '--check'],
];

function run(args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no-install', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'ok' : `FAILED (exit ${code})`;
      process.stdout.write(`\n> ${args.join(' ')}: ${status} in ${seconds} s\n${output}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
