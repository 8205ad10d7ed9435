// @vitest-environment node
/**
 * The slim Chakra theme (src/app/theme.ts) carries only the recipes listed in
 * src/app/theme-recipes.ts. A component whose recipe is missing renders as unstyled HTML, with
 * no error anywhere: this test reads every Chakra import in src/ and, from Chakra's own component
 * sources, the recipes each one looks up, and names any the list lacks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { recipes as allRecipes } from 'chakra-theme/recipes';
import { slotRecipes as allSlotRecipes } from 'chakra-theme/slot-recipes';
import { describe, expect, it } from 'vitest';
import { recipes, slotRecipes } from '../../src/app/theme-recipes';

const root = resolve(__dirname, '../..');
const chakraEsm = join(root, 'node_modules/@chakra-ui/react/dist/esm');
const chakraComponents = join(chakraEsm, 'components');

/** Chakra export name → the file that defines it (namespaces such as `Dialog` included). */
function chakraExports(): Map<string, string> {
  const index = readFileSync(join(chakraEsm, 'index.js'), 'utf8');
  const files = new Map<string, string>();
  const namespaces = new Map<string, string>();
  for (const [, local, file] of index.matchAll(/import \* as (\S+) from '([^']+)'/g)) {
    namespaces.set(local, file);
  }
  const specifiers = (list: string) =>
    list.split(',').map((spec) => {
      const [name, alias] = spec.trim().split(/\s+as\s+/);
      return { name, exported: alias ?? name };
    });
  for (const [, list, file] of index.matchAll(/export \{([^}]*)\} from '([^']+)'/g)) {
    for (const { exported } of specifiers(list)) files.set(exported, join(chakraEsm, file));
  }
  for (const [, list] of index.matchAll(/export \{([^}]*)\};/g)) {
    for (const { name, exported } of specifiers(list)) {
      const file = namespaces.get(name);
      if (file) files.set(exported, join(chakraEsm, file));
    }
  }
  return files;
}

type RecipeRef = `recipe:${string}` | `slot:${string}`;

/** The recipes a Chakra component file looks up, following its imports of other components. */
function recipesOf(file: string, seen = new Set<string>()): Set<RecipeRef> {
  const found = new Set<RecipeRef>();
  if (seen.has(file)) return found;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const lookups =
    /(createSlotRecipeContext|useSlotRecipe|createRecipeContext|useRecipe)\(\s*\{\s*key:\s*"(\w+)"/g;
  for (const [, fn, key] of source.matchAll(lookups)) {
    found.add(fn.includes('Slot') ? `slot:${key}` : `recipe:${key}`);
  }
  for (const [, spec] of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    const next = resolve(dirname(file), spec);
    if (next.startsWith(chakraComponents)) recipesOf(next, seen).forEach((r) => found.add(r));
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every Chakra name imported in src/, with the files importing it, plus direct recipe lookups. */
function chakraUsage(): { imports: Map<string, string[]>; direct: Map<RecipeRef, string[]> } {
  const imports = new Map<string, string[]>();
  const direct = new Map<RecipeRef, string[]>();
  const add = <K>(map: Map<K, string[]>, key: K, file: string) =>
    map.set(key, [...(map.get(key) ?? []), relative(root, file)]);
  for (const file of sourceFiles(join(root, 'src'))) {
    const source = readFileSync(file, 'utf8');
    for (const [, list] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g)) {
      for (const spec of list.split(',')) {
        const name = spec
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name && !/^type\s/.test(spec.trim())) add(imports, name, file);
      }
    }
    for (const [, fn, key] of source.matchAll(
      /(useSlotRecipe|useRecipe)\(\s*\{\s*key:\s*['"](\w+)['"]/g,
    )) {
      add(direct, fn === 'useSlotRecipe' ? `slot:${key}` : `recipe:${key}`, file);
    }
  }
  return { imports, direct };
}

/** Recipes Chakra's default theme defines: a lookup of anything else finds nothing either way. */
function isThemed(ref: RecipeRef): boolean {
  const [kind, key] = ref.split(':');
  return kind === 'slot' ? key in allSlotRecipes : key in allRecipes;
}

function isListed(ref: RecipeRef): boolean {
  const [kind, key] = ref.split(':');
  return kind === 'slot' ? key in slotRecipes : key in recipes;
}

function neededRecipes(): Map<RecipeRef, string[]> {
  const exportsByName = chakraExports();
  const { imports, direct } = chakraUsage();
  const needed = new Map<RecipeRef, string[]>(direct);
  for (const [name, files] of imports) {
    const file = exportsByName.get(name);
    if (!file || !file.startsWith(chakraComponents)) continue;
    for (const ref of recipesOf(file)) {
      if (isThemed(ref)) needed.set(ref, [...(needed.get(ref) ?? []), `${name} (${files[0]})`]);
    }
  }
  return needed;
}

describe('the slim Chakra theme', () => {
  const needed = neededRecipes();

  it('finds Chakra components in the console (the scan itself works)', () => {
    expect(needed.has('recipe:button')).toBe(true);
    expect(needed.has('slot:dialog')).toBe(true);
  });

  it('lists the recipe of every Chakra component the console uses', () => {
    const missing = [...needed]
      .filter(([ref]) => !isListed(ref))
      .map(([ref, users]) => {
        const [kind, key] = ref.split(':');
        return `${users[0]} needs the ${kind === 'slot' ? 'slot recipe' : 'recipe'} '${key}': add it to src/app/theme-recipes.ts`;
      });
    expect(missing).toEqual([]);
  });

  it('lists no recipe that nothing uses (each one costs bytes and start-up time)', () => {
    const listed: RecipeRef[] = [
      ...Object.keys(recipes).map((key) => `recipe:${key}` as const),
      ...Object.keys(slotRecipes).map((key) => `slot:${key}` as const),
    ];
    expect(listed.filter((ref) => !needed.has(ref))).toEqual([]);
  });
});
