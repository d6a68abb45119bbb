// Lint rules that enforce the dependency direction of STYLE.md: shared <- core <- hosts; renderer and preload -> shared only.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'child_process',
  'worker_threads',
  'http',
  'net',
  'crypto',
  'stream',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'out',
      'dist',
      'test-output',
      'bench/output',
      '.models',
      'test/fixtures/audit-corpus',
      'test/fixtures/audit-corpus-heldout',
      'test/fixtures/audit-corpus-heldout2',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.node.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**', 'src/shared/**', 'src/server/**', 'src/cli/**', 'src/mcp/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The core and its headless hosts never import electron.' }],
          patterns: [
            { group: ['**/main/**', '**/renderer/**', '**/preload/**'], message: 'Dependency direction.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'shared is pure TS.' }],
          patterns: [
            {
              group: ['**/core/**', '**/main/**', '**/renderer/**', '**/server/**', '**/cli/**', '**/mcp/**'],
              message: 'shared depends on nothing.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**', 'src/preload/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins
            .flatMap((m) => [m, `node:${m}`])
            .map((name) => ({ name, message: 'No Node in the renderer.' })),
          patterns: [
            {
              group: ['**/core/**', '**/main/**', '**/server/**', '**/cli/**', '**/mcp/**'],
              message: 'The renderer talks only to the typed API in shared.',
            },
          ],
        },
      ],
    },
  },
);
