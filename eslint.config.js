// Lint: typescript-eslint's recommended rules plus the layering of DESIGN.md that the
// compiler cannot see (the composite tsconfigs already keep renderer and common apart).
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', 'fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'stream', 'url', 'util', 'worker_threads'];

/** Raw IPC lives in exactly two files: the trusted handle() wrapper and the preload. */
const RAW_IPC = [
  { selector: "ImportSpecifier[imported.name='ipcMain']", message: 'Use handle() from main/app/trusted-ipc.ts.' },
  { selector: "ImportSpecifier[imported.name='ipcRenderer']", message: 'Only preload/index.ts uses ipcRenderer.' },
];

/** SQL statements and the engine's database handle (scope.db, engine.db). */
const DATABASE_STATEMENTS = [
  { selector: "MemberExpression[property.name='db']", message: "Only main/engine touches the engine's database: call a named function of main/engine/index.ts." },
  { selector: "MemberExpression[property.name=/^(prepare|pragma)$/]", message: "Only main/engine runs SQL on the engine's tables: call a named function of main/engine/index.ts." },
];

/** Modules that keep SQLite files of their own (not the engine's tables): the intake journals, the app's dropped-file paths. */
const OWN_DATABASES = ['main/intake/journal.ts', 'main/intake/older-issue-journal.ts', 'main/workspace/original-paths.ts'];

/** An import restriction: the given module patterns are not allowed here, with the reason. */
function forbid(patterns, message) {
  return { group: patterns, message };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'build/**', 'dist/**', 'scratch/**', 'bench/results.json'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['common/**/*.ts'],
    ignores: ['common/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [forbid([...NODE_BUILTINS, 'electron', '**/main/**', '**/renderer/**', '**/preload/**'], 'common/ is env-free: no Node, no DOM, no Electron, no app code.')] }],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [forbid([...NODE_BUILTINS, 'electron', '**/main/**', '**/preload/**'], 'The renderer talks only to window.proofdesk and imports only common/.')] }],
    },
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [forbid(['**/main/**', '**/renderer/**'], 'The preload imports only common/ and electron.')] }],
    },
  },
  {
    // Only main/app may touch Electron; the engine and its chains stay plain Node without
    // HTTP, keychain or file watching (DESIGN.md's layering).
    files: ['main/**/*.ts'],
    ignores: ['main/app/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [forbid(['electron'], 'Only main/app imports electron.')] }],
    },
  },
  {
    files: ['main/engine/**/*.ts', 'main/chain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(['electron', 'fastify', 'fastify/*', '@fastify/*', 'undici', 'keytar', 'chokidar', 'node:http', 'node:https', 'http', 'https'], 'The engine takes no HTTP, keychain, file watching or Electron.'),
            forbid(['**/api/**', '**/remote/**', '**/intake/**', '**/cli/**', '**/app/**'], 'The engine imports only common/ and chain/.'),
          ],
        },
      ],
    },
  },
  {
    // The app's main-side services: plain Node over the engine (and the intake's rules,
    // read-only); called by main/app's handlers, never calling them, HTTP or Electron.
    files: ['main/workspace/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(['electron', 'fastify', 'fastify/*', '@fastify/*', 'undici', 'keytar', 'node:http', 'node:https', 'http', 'https'], 'main/workspace takes no HTTP, keychain or Electron.'),
            forbid(['**/api/**', '**/remote/**', '**/cli/**', '**/app/**', '**/renderer/**', '**/preload/**'], 'main/workspace imports only common/, engine/ and intake/.'),
          ],
        },
      ],
    },
  },
  {
    // The REST service: fastify over the engine's public face; it never reaches into the app,
    // the CLI, the desktop's services or the database itself.
    files: ['main/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(['electron', 'keytar', 'chokidar', 'better-sqlite3'], 'main/api takes no Electron, keychain, file watching or SQL: the engine owns its data.'),
            forbid(['**/app/**', '**/cli/**', '**/workspace/**', '**/remote/**', '**/secrets/**'], 'main/api imports only common/, engine/ and intake/.'),
          ],
        },
      ],
    },
  },
  {
    // The client of a remote service: HTTP and common/ only, so it behaves like any other client.
    files: ['main/remote/**/*.ts'],
    ignores: ['main/remote/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(['electron', 'keytar', 'chokidar', 'better-sqlite3', 'fastify', 'fastify/*', '@fastify/*'], 'main/remote is an HTTP client: no Electron, keychain, file watching, SQL or server.'),
            forbid(['**/engine/**', '**/api/**', '**/app/**', '**/cli/**', '**/workspace/**', '**/intake/**', '**/secrets/**'], 'main/remote imports only common/.'),
          ],
        },
      ],
    },
  },
  {
    // The key stores: the keychain or the encrypted file, knowing nothing of what the keys sign.
    files: ['main/secrets/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(['electron', 'fastify', 'fastify/*', '@fastify/*', 'undici', 'chokidar', 'better-sqlite3', 'node:http', 'node:https', 'http', 'https'], 'main/secrets takes no HTTP, SQL, file watching or Electron.'),
            forbid(['**/engine/**', '**/chain/**', '**/api/**', '**/app/**', '**/cli/**', '**/workspace/**', '**/intake/**', '**/remote/**'], 'main/secrets imports only common/, process/ and durable/.'),
          ],
        },
      ],
    },
  },
  {
    // File intake (issue, watched folders, drag-in, CSV create, REST upload) works through
    // IssuingService only, so it is the same over the embedded engine and a remote service, with
    // a journal of its own; the engine's tables and internals stay out of reach (its clock is the
    // one shared type).
    files: ['main/intake/**/*.ts'],
    ignores: ['main/intake/**/*.test.ts', 'main/intake/**/*.fixture.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(['electron', 'fastify', 'fastify/*', '@fastify/*', 'undici', 'keytar', 'node:http', 'node:https', 'http', 'https'], 'main/intake takes no HTTP, keychain or Electron.'),
            forbid(['**/engine/**', '!**/engine/clock.js', '**/api/**', '**/app/**', '**/cli/**', '**/workspace/**', '**/remote/**', '**/secrets/**'], 'main/intake imports only common/, files/, process/ and durable/.'),
          ],
        },
      ],
    },
  },
  {
    // The CLI composes the engine, the service and the watched folders; the desktop app is not its part.
    files: ['main/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [forbid(['electron', '**/app/**', '**/workspace/**'], 'main/cli imports no desktop app code.')] }],
    },
  },
  {
    // No module cycles among the product's modules. Type-only imports are left out: they vanish
    // at compile time and cannot change the order modules run in.
    files: ['main/**/*.ts', 'common/**/*.ts', 'preload/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Raw IPC lives in exactly two files: the trusted handle() wrapper and the preload.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['main/app/trusted-ipc.ts', 'preload/index.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...RAW_IPC],
    },
  },
  {
    // Only main/engine touches the engine's tables: everything else calls its named functions
    // (main/engine/index.ts). The intake journals and the app's list of dropped files' paths are
    // their own SQLite files, not the engine's tables, and open them themselves.
    files: ['main/**/*.ts'],
    ignores: ['main/engine/**', ...OWN_DATABASES, 'main/**/*.test.ts', 'main/**/*.fixture.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [forbid(['better-sqlite3', '**/engine/database.js', '**/engine/list-query.js'], 'Only main/engine runs SQL on the engine\'s tables: call a named function of main/engine/index.ts.')] },
      ],
    },
  },
  {
    // The same zone's statements (trusted-ipc.ts keeps its raw-IPC exemption and runs no SQL).
    files: ['main/**/*.ts'],
    ignores: ['main/engine/**', ...OWN_DATABASES, 'main/**/*.test.ts', 'main/**/*.fixture.ts', 'main/app/trusted-ipc.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...RAW_IPC, ...DATABASE_STATEMENTS],
    },
  },
);
