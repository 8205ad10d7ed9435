/**
 * The server's two entry points (server/main.ts, server/worker.ts) built once per Vitest run into
 * plain JavaScript, for the suites that start and kill real server processes again and again
 * (crash suites, render-kill, the worker's jobs). The same source as `npm start` runs through tsx,
 * bundled by esbuild with the packages left to node_modules: a start took about 4 CPU-s through
 * tsx and 2 CPU-s from the bundle (docs/decisions.md "Tests"). seed.test.ts still starts
 * server/main.ts through tsx, as `npm start` does.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { inject } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory holding main.mjs and worker.mjs (inside the repository: node_modules). */
    serverBundle: string;
  }
}

/** Builds the bundle into a directory of its own under .tmp/ (globalSetup); returns it. */
export async function buildServerBundle(name: string): Promise<string> {
  const outdir = path.join(ROOT, '.tmp', `server-bundle-${name}`);
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['server/main.ts', 'server/worker.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  return outdir;
}

export async function removeServerBundle(outdir: string): Promise<void> {
  await fs.rm(outdir, { recursive: true, force: true });
}

/** What to spawn for a server process from the bundle: `spawn(process.execPath, serverArgs(…))`. */
export function serverArgs(entry: 'main' | 'worker'): string[] {
  return [path.join(inject('serverBundle'), `${entry}.mjs`)];
}
