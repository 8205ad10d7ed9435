// @vitest-environment node
// @vitest-environment node
/**
 * The layering of the views (docs/architecture.md §Rules of the design, rule 9): ESLint refuses
 * an import from one view area into another, and any import of an area from src/views/shared.
 */
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The no-restricted-imports messages ESLint gives this code in that file. */
async function refusals(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line);
}

describe('view areas', () => {
  test('an area importing another area fails lint; shared pieces, app and components pass', async () => {
    const code = [
      "import { VideoTaskList } from '../creation/video-task-list';",
      "import { LedgerSection } from '../shared/ledger-section';",
      "import { Page } from '../../components/page';",
      "import { PropertyPage } from './property-page';",
      'export { VideoTaskList, LedgerSection, Page, PropertyPage };',
    ].join('\n');
    expect(await refusals('src/views/account/bad-import.ts', code)).toEqual([1]);
  });

  test('src/views/shared importing any area fails lint; its own pieces pass', async () => {
    const code = [
      "import { LedgerSection } from './ledger-section';",
      "import { useCustomerColumns } from '../promotion/customer-columns';",
      "export { useCustomerColumns } from '../account/property-page';",
      'export { LedgerSection };',
    ].join('\n');
    expect(await refusals('src/views/shared/bad-import.ts', code)).toEqual([2, 3]);
  });
});
