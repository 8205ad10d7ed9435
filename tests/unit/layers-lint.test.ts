// @vitest-environment node
// @vitest-environment node
/**
 * The server's layers are enforced by lint (docs/architecture.md §Layers): each forbidden import
 * below fails `npm run lint`, each allowed one passes.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { importCycles, moduleGraph } from '../../scripts/check-files';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The restricted-import messages ESLint gives `code` as if it were the file at `file`. */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the server layers (lint)', () => {
  it.each([
    ['server/platform/http/x.ts', "import { runMoney } from '../../modules/ledger';", 'no feature'],
    ['server/platform/jobs/x.ts', "import { x } from '../../integrations/sms';", 'no feature'],
    ['server/platform/db/x.ts', "import type { AppContext } from '../../context';", 'app context'],
    ['server/platform/db/x.ts', "import { buildApp } from '../../app';", 'composes'],
    [
      'server/integrations/sms/x.ts',
      "import { runMoney } from '../../modules/ledger';",
      'no feature',
    ],
    ['server/modules/cards/x.ts', "import { post } from '../ledger/service';", 'index.ts'],
    ['server/modules/cards/x.ts', "import { startAppWorker } from '../../app-jobs';", 'composes'],
    [
      'server/integrations/sms/x.ts',
      "import { createAppContext } from '../../app-context';",
      'composes',
    ],
    ['server/app.ts', "import { post } from './modules/ledger/service';", 'index.ts'],
    [
      'server/modules/cards/x.ts',
      "import { x } from '../../../src/views/login/page';",
      'shares only',
    ],
  ])('%s may not import: %s', async (file, code, says) => {
    const messages = await refusals(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(says);
  });

  it.each([
    ['server/modules/cards/x.ts', "import { post } from '../ledger';"],
    ['server/modules/cards/x.ts', "import { rules } from './card-rules';"],
    ['server/modules/cards/x.ts', "import type { AppContext } from '../../context';"],
    ['server/modules/cards/x.ts', "import { defineRoute } from '../../platform/http/route';"],
    ['server/platform/http/x.ts', "import { openDatabase } from '../db/connection';"],
    ['server/app.ts', "import { cardRoutes } from './modules/cards';"],
  ])('%s may import: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

describe('module folders (scripts/check-files.ts)', () => {
  it('finds a cycle between module folders, through any of their files', () => {
    const file = (name: string) => path.join(root, 'server/modules', name);
    const imports = new Map([
      [file('ledger/reconcile.ts'), [file('digital-human/billing.ts')]],
      [file('digital-human/billing.ts'), [file('ledger/service.ts')]],
      [file('cards/add-cards.ts'), [file('ledger/service.ts')]],
      [file('ledger/service.ts'), []],
    ]);
    const cycles = importCycles(moduleGraph(imports));
    expect(cycles.map((c) => [...c].sort())).toEqual([['digital-human', 'ledger']]);
    imports.set(file('ledger/reconcile.ts'), []);
    expect(importCycles(moduleGraph(imports))).toEqual([]);
  });
});
