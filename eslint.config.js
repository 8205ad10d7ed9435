import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Layering (CONVENTIONS.md): machines are pure; the server only shares the contract and the route table.
const noReactOrHttp = {
  patterns: [
    {
      group: ['react', 'react-dom', '@xstate/react', '@chakra-ui/*', 'react-intl'],
      message: 'Machines are pure: no React.',
    },
    {
      group: ['**/api/http', '**/api/http.ts', 'superagent'],
      message: 'Machines never call HTTP; inject actors with provide().',
    },
  ],
};
const serverBoundary = {
  patterns: [
    {
      // A regex: gitignore-style negations cannot re-include files under an excluded folder.
      regex: '(^|/)src/(?!api/contract/|app/routes/route-table(\\.ts)?$)',
      message:
        'The server shares only src/api/contract and src/app/routes/route-table with the console.',
    },
  ],
};

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
  { files: ['src/machines/**/*.ts'], rules: { 'no-restricted-imports': ['error', noReactOrHttp] } },
  { files: ['server/**/*.ts'], rules: { 'no-restricted-imports': ['error', serverBoundary] } },
);
