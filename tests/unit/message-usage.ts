/**
 * Which catalogue ids a part of the console can show, read from its sources: every module reached
 * from a set of files through relative imports (static and `import()`, type-only ones left out),
 * and in each the string literals that are message ids. A template such as `role.${type}` stands
 * for every id it can make (those starting with `role.`). Ids reach views from the contract's
 * schemas (validation ids), the machines and the area modules (notices) as plain literals, so
 * this finds them wherever they are written.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

export const srcRoot = resolve(import.meta.dirname, '../../src');

function resolveModule(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...['.ts', '.tsx', '/index.ts', '/index.tsx'].map((e) => base + e)];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

interface ModuleFacts {
  imports: string[];
  literals: string[];
  templateHeads: string[];
}

const factsCache = new Map<string, ModuleFacts>();

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    !!named &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

function factsOf(file: string): ModuleFacts {
  const cached = factsCache.get(file);
  if (cached) return cached;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const facts: ModuleFacts = { imports: [], literals: [], templateHeads: [] };
  const addImport = (specifier: string) => {
    if (!specifier.startsWith('.')) return;
    const target = resolveModule(file, specifier);
    if (target) facts.imports.push(target);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      if (!isTypeOnlyImport(node)) addImport((node.moduleSpecifier as ts.StringLiteral).text);
      return;
    }
    if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && !node.isTypeOnly) {
        addImport((node.moduleSpecifier as ts.StringLiteral).text);
      }
      return;
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      addImport(node.arguments[0].text);
      return;
    }
    if (ts.isImportTypeNode(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      facts.literals.push(node.text);
    } else if (ts.isTemplateHead(node)) {
      facts.templateHeads.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  factsCache.set(file, facts);
  return facts;
}

/** The catalogues themselves (they hold every id as a key, shown or not). */
const isCatalogue = (file: string) =>
  /[\\/]src[\\/](i18n[\\/][\w-]*[a-z]{2}-[A-Z]{2}|api[\\/]contract[\\/]messages-[a-z]{2}-[A-Z]{2})\.ts$/.test(
    file,
  );

/** The modules reached from `entries` (the entries included), not entering those in `stopAt`. */
export function reachedModules(entries: string[], stopAt: string[] = []): Set<string> {
  const stop = new Set(stopAt);
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || stop.has(file) || !file.startsWith(srcRoot) || isCatalogue(file)) return;
    seen.add(file);
    factsOf(file).imports.forEach(visit);
  };
  entries.forEach(visit);
  return seen;
}

/** The ids of `ids` that the modules' sources can show. */
export function idsUsedBy(modules: Iterable<string>, ids: readonly string[]): Set<string> {
  const known = new Set(ids);
  const used = new Set<string>();
  for (const file of modules) {
    const { literals, templateHeads } = factsOf(file);
    for (const literal of literals) if (known.has(literal)) used.add(literal);
    for (const head of templateHeads) {
      if (!/^[a-zA-Z]+\.[\w.]*$/.test(head)) continue;
      for (const id of ids) if (id.startsWith(head)) used.add(id);
    }
  }
  return used;
}

/** The signed-in pages of src/app/routes/page-views.ts: route name → view module and the parts it names. */
export function pageViews(): Map<string, { module: string; parts: string[] }> {
  const file = resolve(srcRoot, 'app/routes/page-views.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const views = new Map<string, { module: string; parts: string[] }>();
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      node.name.getText(source) === 'VIEWS' &&
      node.initializer &&
      ts.isObjectLiteralExpression(node.initializer)
    ) {
      for (const property of node.initializer.properties) {
        if (!ts.isPropertyAssignment(property) || !ts.isCallExpression(property.initializer))
          continue;
        const [load, ...parts] = property.initializer.arguments;
        const imported = /import\('([^']+)'\)/.exec(load.getText(source));
        const module = imported && resolveModule(file, imported[1]);
        if (!module)
          throw new Error(`page-views.ts: no view module for ${property.name.getText(source)}`);
        views.set(property.name.getText(source), {
          module,
          parts: parts.filter(ts.isStringLiteral).map((part) => part.text),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return views;
}

export const src = (path: string) => resolve(srcRoot, path);

/** The modules `file` imports (static and `import()`), for explaining a path. */
export const importsOf = (file: string): string[] => factsOf(file).imports;
