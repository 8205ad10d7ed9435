// @vitest-environment node
/**
 * The slim Chakra theme (src/app/theme/theme.ts) carries only the recipes listed in
 * src/app/theme/theme-recipes.ts. A component whose recipe is missing renders as unstyled HTML, with
 * no error anywhere: this test reads every Chakra import in src/ and, from Chakra's own component
 * sources, the recipes each one looks up, and names any the list lacks. The list is in two halves:
 * the first page's (theme-recipes.ts), and the lazily loaded views' (theme-recipes-later.ts),
 * in the system the provider switches to when such a view loads (src/app/routes/lazy.ts): a file on the first page must find its recipes
 * in the first half, and every lazily loaded view must come through lazy.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { recipes as allRecipes } from 'chakra-theme/recipes';
import { slotRecipes as allSlotRecipes } from 'chakra-theme/slot-recipes';
import { describe, expect, it } from 'vitest';
import { recipes, slotRecipes } from '../../src/app/theme/theme-recipes';
import { laterRecipes, laterSlotRecipes } from '../../src/app/theme/theme-recipes-later';

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

const refsOf = (plain: object, slot: object): RecipeRef[] => [
  ...Object.keys(plain).map((key) => `recipe:${key}` as const),
  ...Object.keys(slot).map((key) => `slot:${key}` as const),
];
const firstPage = new Set(refsOf(recipes, slotRecipes));
const later = new Set(refsOf(laterRecipes, laterSlotRecipes));

function isListed(ref: RecipeRef): boolean {
  return firstPage.has(ref) || later.has(ref);
}

/** Recipe → who needs it: `Component (file)` per file that uses it. */
function neededRecipes(): Map<RecipeRef, { user: string; file: string }[]> {
  const exportsByName = chakraExports();
  const { imports, direct } = chakraUsage();
  const needed = new Map<RecipeRef, { user: string; file: string }[]>();
  const add = (ref: RecipeRef, user: string, file: string) =>
    needed.set(ref, [...(needed.get(ref) ?? []), { user, file }]);
  for (const [ref, files] of direct) for (const file of files) add(ref, file, file);
  for (const [name, files] of imports) {
    const file = exportsByName.get(name);
    if (!file || !file.startsWith(chakraComponents)) continue;
    for (const ref of recipesOf(file)) {
      if (isThemed(ref)) for (const user of files) add(ref, `${name} (${user})`, user);
    }
  }
  return needed;
}

/** The files of src/ that the entry loads up front: its static imports, followed through. */
function firstPageFiles(): Set<string> {
  const found = new Set<string>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    found.add(file);
    const source = readFileSync(join(root, file), 'utf8');
    for (const [, spec] of source.matchAll(
      /^import\s+(?!type\b)[^;]*?from\s+'(\.{1,2}\/[^']+)'/gm,
    )) {
      const base = join(dirname(join(root, file)), spec);
      const next = ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find(isFile);
      if (next) visit(relative(root, next));
    }
  };
  visit('src/main.tsx');
  // The first page itself: the login view (preloaded with the entry, never through lazy.ts).
  visit('src/views/login/login-page.tsx');
  return found;
}

function isFile(path: string): boolean {
  try {
    return readFileSync(path) !== undefined;
  } catch {
    return false;
  }
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
        return `${users[0]!.user} needs the ${kind === 'slot' ? 'slot recipe' : 'recipe'} '${key}': add it to src/app/theme/theme-recipes.ts`;
      });
    expect(missing).toEqual([]);
  });

  it('lists no recipe that nothing uses (each one costs bytes and start-up time), none twice', () => {
    const listed = [...firstPage, ...later];
    expect(listed.filter((ref) => !needed.has(ref))).toEqual([]);
    expect([...later].filter((ref) => firstPage.has(ref))).toEqual([]);
  });

  it("has in the first page's half every recipe the first page uses, and no other", () => {
    const files = firstPageFiles();
    expect(
      files.has('src/app/routes/router.tsx') && files.has('src/views/login/login-page.tsx'),
    ).toBe(true);
    const usedFirst = [...needed].filter(([, users]) => users.some((u) => files.has(u.file)));
    const missing = usedFirst
      .filter(([ref]) => !firstPage.has(ref))
      .map(([ref, users]) => `${ref} for ${users.find((u) => files.has(u.file))?.user}`);
    expect(missing, 'move these to src/app/theme/theme-recipes.ts').toEqual([]);
    const notFirst = [...firstPage].filter((ref) => !usedFirst.some(([used]) => used === ref));
    expect(notFirst, 'move these to src/app/theme/theme-recipes-later.ts').toEqual([]);
  });

  it('loads every lazily loaded view through lazy.ts (the later recipes come with it)', () => {
    // Dynamic imports of modules that render nothing, or of the first page itself.
    const plain = [
      './toaster-store',
      '../../api/contract/auth',
      '../theme/theme-later',
      './app/theme/theme-later', // main.tsx: signed in, the whole system before the first render
      './shell-actors', // the shell's actors (app-actors.ts), no view
      './app/boot/inspector', // development only, renders nothing
      './signed-out-en-US', // the catalogues' two parts (src/i18n/messages.ts)
      './signed-out-zh-CN',
      './signed-in-en-US',
      './signed-in-zh-CN',
      // The signed-in part's areas (src/i18n/messages.ts), loaded with their pages' views.
      './signed-in-money-en-US',
      './signed-in-money-zh-CN',
      './signed-in-creation-en-US',
      './signed-in-creation-zh-CN',
      './signed-in-digital-human-en-US',
      './signed-in-digital-human-zh-CN',
      './signed-in-matrix-en-US',
      './signed-in-matrix-zh-CN',
      './signed-out-batch-auth-en-US', // the public batch authorisation page's part
      './signed-out-batch-auth-zh-CN',
      './signed-in-audit-en-US', // the audit log viewer's part
      './signed-in-audit-zh-CN',
      './signed-in-ai-tool-en-US', // the AI tool page's part
      './signed-in-ai-tool-zh-CN',
      './signed-in-domains-en-US', // the domains page's part
      './signed-in-domains-zh-CN',
      './signed-in-settings-en-US', // the settings page's part
      './signed-in-settings-zh-CN',
      './signed-in-system-init-en-US', // the system init page's part
      './signed-in-system-init-zh-CN',
      './signed-in-content-en-US', // the articles' and agreements' part
      './signed-in-content-zh-CN',
      'tus-js-client', // the uploader (src/api/uploads.ts), loaded on the first tus upload
      'qrcode', // the batch links' QR encoder (app/actors/matrix-batch-links.ts), on the first code
      './page-views', // the signed-in pages' route → view map (each view in it through view())
    ];
    const bare: string[] = [];
    for (const file of sourceFiles(join(root, 'src'))) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/import\(\s*'([^']+)'\s*\)/g)) {
        const before = source.slice(Math.max(0, match.index - 40), match.index);
        // page-views.ts's page() loads the view through view() beside its catalogue parts.
        const wrapped = /(withLaterTheme|view|page)\(\s*(\(\)\s*=>\s*)?$/.test(before);
        const login = match[1] === '../../views/login/login-page' && file.endsWith('views.ts');
        if (!wrapped && !login && !plain.includes(match[1])) {
          bare.push(`${relative(root, file)}: import('${match[1]}')`);
        }
      }
    }
    expect(bare).toEqual([]);
  });

  it('switches the provider to a system with both halves once a lazily loaded view loads', async () => {
    const { systemStore } = await import('../../src/app/theme/system-store');
    // The first page's system, built when the provider first asks for it.
    const system = systemStore.get();
    expect(systemStore.get()).toBe(system);
    const lacking = (sys: typeof system) =>
      [...firstPage, ...later].filter((ref) => {
        const [kind, key] = ref.split(':');
        return !(kind === 'slot' ? sys.isSlotRecipe(key) : sys.isRecipe(key));
      });
    expect(lacking(system)).toEqual([...later]);
    await import('../../src/app/theme/theme-later');
    expect(systemStore.get()).not.toBe(system);
    expect(lacking(systemStore.get())).toEqual([]);
    // The brand's own button recipe survives the merge (solid hover darkened for contrast).
    expect(JSON.stringify(systemStore.get().getRecipe('button'))).toContain('color-mix');
  });
});
