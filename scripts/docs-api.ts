/**
 * Writes docs/api.md, the API reference, from the server's route definitions. Never edit the
 * output; a test fails when it is stale.
 *
 *   npm run docs:api
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApiDocument, renderApiMarkdown } from './api-reference';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const markdown = renderApiMarkdown(await buildApiDocument());
writeFileSync(resolve(root, 'docs/api.md'), markdown);
console.log(`docs/api.md: ${markdown.split('\n').length} lines`);
