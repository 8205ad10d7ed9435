/**
 * `npm run lint`'s checks ESLint has no rule for without another plugin: every code file's name
 * is kebab-case, and no module reaches itself again through static imports (an import cycle).
 * Type-only imports and dynamic `import()` are left out: neither runs a module at load time.
 * Exits 1 naming each offender.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const FOLDERS = ['src', 'server', 'tests', 'scripts', 'build'];
const CODE = /\.(ts|tsx|mts|js|mjs|cjs)$/;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/;
/**
 * The message catalogues are named after their BCP 47 locale (src/i18n/en-US.ts, its parts
 * src/i18n/signed-out-en-US.ts, signed-in-en-US.ts and signed-in-<area>-en-US.ts, pieces a part
 * spreads such as batch-auth-en-US.ts, src/api/contract/messages-en-US.ts).
 */
const NAMED_AFTER_LOCALE =
  /^src\/(i18n\/([a-z]+-)*|api\/contract\/messages-)[a-z]{2}-[A-Z]{2}\.ts$/;

function codeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(full);
    return CODE.test(entry.name) ? [full] : [];
  });
}

export function badFileNames(files: string[]): string[] {
  return files
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .filter((rel) => !KEBAB.test(path.basename(rel)) && !NAMED_AFTER_LOCALE.test(rel));
}

/**
 * The files a module imports, resolved to paths: for their values only (static, not type-only),
 * or with `withTypes` every static import and re-export.
 */
function valueImports(file: string, withTypes = false): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          clause.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (withTypes || !typeOnly)
        specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (withTypes || !statement.isTypeOnly)
        specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => resolve(path.resolve(path.dirname(file), s)))
    .filter((f): f is string => f !== null);
}

function resolve(base: string): string | null {
  const candidates = [
    base,
    ...['.ts', '.tsx', '.js', '.mjs', '.cjs', '/index.ts', '/index.tsx'].map((e) => base + e),
    base.replace(/\.js$/, '.ts'),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** Each group of modules that import each other in a circle (Tarjan's strongly connected components). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(group.reverse());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/**
 * The server's feature modules (folders of server/modules) as a graph: module → the modules its
 * files import, type-only imports included (docs/architecture.md §Layers: no cycles between
 * module folders, even through types).
 */
export function moduleGraph(imports: Map<string, string[]>): Map<string, string[]> {
  const moduleOf = (file: string) =>
    /^server\/modules\/([^/]+)\//.exec(path.relative(root, file).split(path.sep).join('/'))?.[1];
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of imports) {
    const from = moduleOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const target of targets) {
      const to = moduleOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  return new Map([...graph].map(([node, edges]) => [node, [...edges]]));
}

function main(): number {
  const files = FOLDERS.flatMap((folder) => codeFiles(path.join(root, folder)));
  const problems: string[] = [];
  for (const file of badFileNames(files)) problems.push(`${file}: file names are kebab-case`);
  const graph = new Map(files.map((file) => [file, valueImports(file)]));
  for (const cycle of importCycles(graph)) {
    const names = cycle.map((file) => path.relative(root, file));
    problems.push(`import cycle: ${[...names, names[0]].join(' → ')}`);
  }
  const serverFiles = files.filter((file) => file.startsWith(path.join(root, 'server') + path.sep));
  const modules = moduleGraph(new Map(serverFiles.map((file) => [file, valueImports(file, true)])));
  for (const cycle of importCycles(modules)) {
    problems.push(`module cycle: server/modules/${[...cycle, cycle[0]].join(' → ')}`);
  }
  for (const problem of problems) console.error(problem);
  return problems.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  process.exitCode = main();
}
