import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Layering (docs/decisions.md, docs/architecture.md). Each layer imports only from the layers below it:
//   views      → app/actors, app/hooks, machines, components, i18n, contract types
//   components → i18n, contract types (nothing above them: no views, app or machines)
//   machines   → other machines, contract types, the route table (pure: no React, no HTTP, no
//                endpoint functions; endpoints are injected with provide())
//   server     → the contract and the route table only
// Import cycles and kebab-case file names are checked by scripts/check-files.ts (npm run lint).
// Patterns are regexes on the import specifier: gitignore-style negations cannot re-include
// files under an excluded folder.
const endpointModules = {
  regex: '(^|/)api/(?!contract/)',
  message: 'Only contract types from src/api: endpoint calls belong to the area actor modules.',
};
const noReactOrHttp = [
  {
    group: ['react', 'react-dom', '@xstate/react', '@chakra-ui/*', 'react-intl'],
    message: 'Machines are pure: no React.',
  },
  {
    group: ['superagent'],
    message: 'Machines never call HTTP; inject actors with provide().',
  },
];
const machineBoundary = [
  ...noReactOrHttp,
  { ...endpointModules, message: 'Machines never call endpoints; inject actors with provide().' },
  {
    regex: '(^|/)(views|components|i18n)/|(^|/)app/(?!routes/route-table$)',
    message: 'Machines import other machines, contract types and the route table only.',
  },
];
const componentBoundary = [
  endpointModules,
  {
    regex: '(^|/)(views|app|machines)/',
    message: 'Components are below views, the app and machines: take data and actors as props.',
  },
];
const viewBoundary = [
  endpointModules,
  {
    // The login page also takes over its pre-rendered copy (app/boot/prerender-handover) and
    // loads its dialogs with the lazily loaded views' theme (app/routes/lazy).
    regex: '(^|/)app/(?!actors/|hooks/|boot/prerender-handover$|routes/lazy$)',
    message: 'Views take actors from app/actors and view hooks from app/hooks only.',
  },
];
// A view area (src/views/<area>/, one flat folder each) imports no other area: what two areas
// use lives in src/views/shared/ (view pieces) or src/components/ (generic UI); shared itself
// imports no area. From a file of an area, `../x/` is another area unless x is `shared` or `..`.
const otherArea = {
  regex: '^\\.\\./(?!shared/|\\.\\./)',
  message:
    'A view area imports no other area: move what both use to src/views/shared or src/components.',
};
const sharedImportsNoArea = {
  regex: '^\\.\\./(?!\\.\\./)',
  message: 'src/views/shared is below every view area: it imports none of them.',
};
const sharedWithConsole = {
  regex: '(^|/)src/(?!api/contract/|app/routes/route-table(\\.ts)?$)',
  message:
    'The server shares only src/api/contract and src/app/routes/route-table with the console.',
};
// The server's layers (docs/architecture.md §Layers): platform (infrastructure) → integrations
// (outside services) → modules (features) → the app (server/*.ts, which composes them). A layer
// imports only the layers before it, and a module only another module's index.ts.
// Module folder cycles are checked by scripts/check-files.ts.
const appFiles = {
  regex: '(^|/)(app|app-context|app-jobs|main|worker|prepare)$',
  message: 'The app (server/*.ts) composes the layers; no layer imports it.',
};
// Modules and integrations take the app's context (server/context.ts: the platform's services
// and the integrations registry); the platform knows only its own parts.
const appContext = {
  regex: '(^|/)context$',
  message: 'server/platform knows only its own parts, not the app context.',
};
const noFeatures = {
  regex: '(^|/)(modules|integrations)(/|$)',
  message: 'server/platform is infrastructure: it imports no feature module and no integration.',
};
const noModules = {
  regex: '(^|/)modules(/|$)',
  message: 'An integration talks to the outside world only: it imports no feature module.',
};
const moduleInternals = {
  regex: '^\\.\\./[^./][^/]*/',
  message: "Use another module through its index.ts ('../ledger'), not its files.",
};
const appModuleInternals = {
  regex: '^\\./modules/[^/]+/',
  message: "Use a module through its index.ts ('./modules/ledger'), not its files.",
};
const restrict = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns: [sharedWithConsole, ...patterns] }],
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['src/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXText[value=/[A-Za-z\\u4e00-\\u9fa5]/]',
          message: 'Use react-intl (FormattedMessage / intl.formatMessage), not literal JSX text.',
        },
      ],
    },
  },
  {
    files: ['src/machines/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: machineBoundary }] },
  },
  {
    files: ['src/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: componentBoundary }] },
  },
  {
    files: ['src/views/**/*.{ts,tsx}'],
    ignores: ['src/views/shared/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...viewBoundary, otherArea] }] },
  },
  {
    files: ['src/views/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...viewBoundary, sharedImportsNoArea] }],
    },
  },
  { files: ['server/*.ts'], rules: restrict(appModuleInternals) },
  { files: ['server/platform/**/*.ts'], rules: restrict(noFeatures, appFiles, appContext) },
  { files: ['server/integrations/**/*.ts'], rules: restrict(noModules, appFiles) },
  { files: ['server/modules/**/*.ts'], rules: restrict(moduleInternals, appFiles) },
);
