import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    plugins: {
      'react-hooks': reactHooks,
      import: importPlugin,
    },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            // A feature stands alone: it never reaches into another feature.
            // A phone feature (mobile-*) is the phone's face of the desktop features: it reuses their
            // API hooks, types and helpers, but never another phone feature.
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: feature.startsWith('mobile-')
                ? [`./${feature}`, ...features.filter((other) => !other.startsWith('mobile-'))]
                : [`./${feature}`],
            })),
            // The app composes features; features and shared code never import the app.
            { target: './src/features', from: './src/app' },
            // Shared code serves everyone and depends on no feature or app code.
            {
              target: ['./src/components', './src/lib', './src/config', './src/locales'],
              from: ['./src/features', './src/app'],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      // Test helpers may render the whole app.
      'import/no-restricted-paths': 'off',
    },
  },
  {
    files: ['vite.config.ts', 'scripts/**', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
);
