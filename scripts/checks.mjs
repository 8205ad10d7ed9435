/**
 * The static checks of `npm test` side by side: `npm run lint` (ESLint, Prettier, the file
 * checks, knip), `npm run typecheck` and the machine docs' check. Each runs on one core; on a
 * 2-core machine together they take about as long as TypeScript alone (docs/decisions.md
 * "Tests"). Each script's output is printed when it ends; the exit code is non-zero when any failed.
 */
import { spawn } from 'node:child_process';

const CHECKS = [
  ['run', 'typecheck'],
  ['run', 'lint'],
  ['run', 'docs:machines', '--', '--check'],
];

function run(args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['--silent', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'ok' : `FAILED (exit ${code})`;
      process.stdout.write(`\n> npm ${args.join(' ')}: ${status} in ${seconds} s\n${output}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(CHECKS.map(run));
process.exitCode = results.every(Boolean) ? 0 : 1;
