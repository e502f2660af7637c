// ESLint runs in `npm test` (npm run lint). Beyond typescript-eslint's recommended rules it
// enforces the layer boundaries of docs/design.md: core is plain Node (no VS Code, no LSP);
// the language server, the CLI and the MCP server never reach into the extension; only the
// extension talks to VS Code. A boundary broken here would break a process at run time
// (the server and the CLI have no `vscode` module), so it fails the build instead.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const vscodeOnly = { name: 'vscode', message: 'Only src/extension may import vscode.' };
const lsp = (where) => [
  { group: ['vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageserver-protocol', 'vscode-languageserver-protocol/*', 'vscode-languageclient', 'vscode-languageclient/*'], message: `${where} does not use the LSP packages.` },
];
// Relative imports only: package paths such as '@modelcontextprotocol/sdk/server/mcp.js' are not layers.
const layers = (where, ...forbidden) => [{ regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`, message: `${where} must not import from src/${forbidden.join(', src/')}.` }];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.node24/**', '.vscode-test/**', '.bench/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are deliberately unused (interface conformance, destructuring).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-control-regex': 'off', // terminal-escape and secret scanners match control characters on purpose
      // A lazy require() is how Lore keeps start-up cheap (SDKs, zod, better-sqlite3 load on first use).
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // LSP request and notification types follow the protocol's own namespace convention.
    files: ['src/shared/*Protocol.ts', 'src/shared/protocol.ts'],
    rules: { '@typescript-eslint/no-namespace': 'off' },
  },
  {
    // Tests read the CLI's and servers' JSON replies loosely on purpose.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [vscodeOnly], patterns: [...lsp('src/core'), ...layers('src/core', 'extension', 'server', 'cli', 'mcp', 'shared')] }] },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [vscodeOnly], patterns: [{ group: ['vscode-languageclient', 'vscode-languageclient/*'], message: 'The server does not use the client.' }, ...layers('src/server', 'extension', 'cli', 'mcp')] }] },
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [vscodeOnly], patterns: [...lsp('src/mcp'), ...layers('src/mcp', 'extension', 'server', 'cli', 'shared')] }] },
  },
  {
    files: ['src/cli/**/*.ts'],
    // The CLI hosts the MCP server (`lore mcp`), so cli → mcp is allowed.
    rules: { 'no-restricted-imports': ['error', { paths: [vscodeOnly], patterns: [...lsp('src/cli'), ...layers('src/cli', 'extension', 'server', 'shared')] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [vscodeOnly], patterns: layers('src/shared', 'extension', 'server', 'cli', 'mcp') }] },
  },
  {
    files: ['src/extension/**/*.ts'],
    // The server runs in its own process: the extension reaches it through the protocol only.
    rules: { 'no-restricted-imports': ['error', { patterns: layers('src/extension', 'server', 'cli', 'mcp') }] },
  },
);
