// One lint configuration for the whole repository (ESLint flat config).
// Formatting belongs to Prettier; eslint-config-prettier switches off the rules it owns.
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const storeImplementations = {
  group: ['**/store/memory-book-store*', '**/store/postgres*', '**/store/postgres/**'],
  message: 'Routes reach the store only through the BookStore interface (fastify.store), never an implementation.',
};

const serverOnlyCode = {
  group: ['@/server/*', '@/server/**', '**/server/*', '**/server/**'],
  message: 'Components run in the browser too; src/server/** is server-only. Pass data in as props instead.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.next/**',
      '**/next-env.d.ts',
      '**/coverage/**',
      'apps/portal/e2e/artifacts/**',
      'apps/books-api/bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The rules that catch real bugs stay errors, named here so nobody switches them off by accident.
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test() and describe() return promises that the runner itself awaits.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // typeof import() stays allowed: the benchmarks type modules they load from dist/ at run time.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      // Fastify hooks and Next.js route handlers are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain JavaScript configuration files are not in any tsconfig project.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['apps/books-api/src/routes/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [storeImplementations] }] },
  },
  {
    files: ['apps/portal/**/*.{ts,tsx}'],
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
    settings: { next: { rootDir: 'apps/portal' } },
  },
  {
    files: ['apps/portal/src/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverOnlyCode] }] },
  },
  {
    // Tests poke at untyped JSON answers on purpose; asserting their shape is the test's job.
    files: ['**/test/**/*.ts', '**/*.test.ts', '**/*.test.tsx', '**/e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
