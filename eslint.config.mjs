// ESLint runs in `npm test` (npm run lint). Beyond typescript-eslint's recommended rules it
// enforces the layer boundaries of docs/design.md: core is plain Node (no VS Code, no LSP);
// the language server, the CLI and the MCP server never reach into the extension; only the
// extension talks to VS Code. A boundary broken here would break a process at run time
// (the server and the CLI have no `vscode` module), so it fails the build instead.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const vscodeOnly = { name: 'vscode', message: 'Only src/extension may import vscode.' };
const lsp = (where) => [
  {
    group: [
      'vscode-languageserver',
      'vscode-languageserver/*',
      'vscode-languageserver-protocol',
      'vscode-languageserver-protocol/*',
      'vscode-languageclient',
      'vscode-languageclient/*',
    ],
    message: `${where} does not use the LSP packages.`,
  },
];
// Relative imports only: package paths such as '@modelcontextprotocol/sdk/server/mcp.js' are not layers.
const layers = (where, ...forbidden) => [
  { regex: `^(\\.\\./)+(${forbidden.join('|')})(/|$)`, message: `${where} must not import from src/${forbidden.join(', src/')}.` },
];

// The engine's tiers (AGENTS.md): base ← model ← store ← services. A file may import its own
// zone, any zone of a lower tier, and the zones of its own tier that its entry names here (a
// declaration, so the graph between siblings stays acyclic: test/lint/engineTiers.test.ts checks
// that, and that every folder of src/core belongs to a zone). A new folder is declared here first.
export const ENGINE_TIERS = ['base', 'model', 'store', 'services'];
export const ENGINE_ZONES = {
  base: [],
  'model/safety': [],
  model: ['model/safety'],
  // Merges of the store's files by their meaning, as git's merge driver runs them (design.md, the team paragraph).
  'model/merge': ['model', 'model/safety'],
  store: [],
  'store/history': ['store'],
  'store/journal': ['store'],
  'store/items': ['store', 'store/history', 'store/journal'],
  'store/changes': ['store', 'store/history', 'store/journal'],
  'store/lifecycle': ['store', 'store/history', 'store/changes'],
  'store/forget': ['store', 'store/history', 'store/journal', 'store/items', 'store/changes'],
  // A team's store through git: the merge driver's registration and the reconcile after a merge.
  'store/merge': ['store', 'store/history', 'store/lifecycle', 'store/forget'],
  'services/conversations': [],
  'services/discovery': ['services/conversations'],
  'services/promptCache': ['services/conversations', 'services/discovery'],
  'services/providers': ['services/promptCache'],
  // What model calls cost and the caps on them (priced at promptCache's list prices), for every task that calls a model.
  'services/spending': ['services/promptCache', 'services/providers'],
  'services/search': ['services/conversations', 'services/providers'],
  'services/context': ['services/promptCache'],
  'services/topics': ['services/promptCache', 'services/providers', 'services/search', 'services/context'],
  'services/tasks': ['services/conversations', 'services/search'],
  'services/harvest': ['services/conversations', 'services/discovery', 'services/providers', 'services/search', 'services/spending'],
  'services/hooks': ['services/discovery', 'services/promptCache', 'services/search', 'services/context', 'services/topics'],
  'services/tidy': ['services/providers', 'services/search', 'services/harvest', 'services/spending'],
  // The agent tools, defined once for MCP and VS Code's language model tools (src/mcp, the extension adapt them).
  'services/agentTools': ['services/conversations', 'services/search', 'services/tasks'],
};
const CORE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src', 'core');
/** The zone of a path inside src/core (the longest declared folder that holds it), '' for none. */
export function engineZone(file) {
  const rel = path.relative(CORE, file).split(path.sep).join('/');
  if (rel.startsWith('..')) return undefined;
  return (
    Object.keys(ENGINE_ZONES)
      .filter((z) => rel.startsWith(`${z}/`))
      .sort((a, b) => b.length - a.length)[0] ?? ''
  );
}
const tierOf = (zone) => ENGINE_TIERS.indexOf(zone.split('/')[0]);
const engineTiers = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      up: '{{from}} must not import {{to}}: {{why}}.',
      undeclared: '{{file}} is in no engine zone: declare its folder in ENGINE_ZONES (eslint.config.mjs).',
    },
  },
  create(context) {
    const from = engineZone(context.filename);
    if (from === undefined) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = engineZone(path.resolve(path.dirname(context.filename), spec));
      if (to === undefined || to === '' || to === from || from === '') return;
      const [a, b] = [tierOf(from), tierOf(to)];
      if (b < a || (b === a && ENGINE_ZONES[from].includes(to))) return;
      const why =
        b > a
          ? `${to.split('/')[0]} is a higher tier than ${from.split('/')[0]}`
          : `${from} does not declare ${to} among the zones it uses`;
      context.report({ node, messageId: 'up', data: { from: `src/core/${from}`, to: `src/core/${to}`, why } });
    };
    const literal = (node) =>
      node && node.type === 'Literal' ? node.value : node?.type === 'TSLiteralType' ? node.literal?.value : undefined;
    return {
      Program(node) {
        if (from === '')
          context.report({
            node,
            messageId: 'undeclared',
            data: { file: path.relative(path.dirname(path.dirname(CORE)), context.filename) },
          });
      },
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, literal(node.source)),
      TSImportType: (node) => check(node, literal(node.argument)),
      CallExpression: (node) =>
        node.callee.type === 'Identifier' && node.callee.name === 'require' && check(node, literal(node.arguments[0])),
    };
  },
};
// Core modules that write the store (or take its lock, or sleep waiting for it): the VS Code
// extension must not load them. Paths under src/core, without the extension.
const EXTENSION_FORBIDDEN_WRITERS = [
  'base/(atomicWrite|guardedReplace|appendInPlace|storeLock|fileVersion|storeText)',
  'store/(initStore|strayFiles|undoRecord|fileNotes|noteMigration|instructionSync)',
  'store/items/(rememberItem|manualNote|itemChanges|supersedeByHand|reviewEdit|reviewQueue|agentWrites|moveItem)',
  'store/history/storeHistory',
  'store/changes/(applyPlan|undoLastHarvest)',
  'store/lifecycle/(storeDiff|prune)',
  'store/journal/journalLearned',
  'store/forget/forgetConversation',
  'services/harvest/(applyPreviewed|runHarvest|planSelection|reconstruct)',
  'services/conversations/chatTranscript',
];

// Lazy loading is done one way (src/core/base/lazy.ts): `lazy(() => require('x') as typeof import('x'))`,
// a typed, memoised getter with a literal path esbuild can follow. Any other require() is a second way.
const lazyLoading = [
  {
    selector:
      "CallExpression[callee.name='require']:not(CallExpression[callee.name='lazy'] > ArrowFunctionExpression > TSAsExpression > CallExpression.expression[arguments.0.type='Literal'])",
    message:
      "Load a module on first use with lazy(() => require('x') as typeof import('x')) (src/core/base/lazy.ts), declared at the top of the file.",
  },
  {
    selector: 'ImportExpression',
    message:
      "Load a module on first use with lazy(() => require('x') as typeof import('x')) (src/core/base/lazy.ts): one way, synchronous where the caller is.",
  },
];
const spreadMessage =
  'A list spread into a call puts every element on the call stack ("Maximum call stack size exceeded" past about 120,000): use pushAll, spliceAll, maxOf or minOf (src/core/base/bulkArrays.ts).';
const unboundedSpreads = [
  { selector: 'CallExpression[callee.property.name=/^(push|unshift|splice)$/] > SpreadElement', message: spreadMessage },
  { selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min)$/] > SpreadElement", message: spreadMessage },
  { selector: "CallExpression[callee.object.name='String'][callee.property.name=/^fromC/] > SpreadElement", message: spreadMessage },
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.node24/**', '.vscode-test/**', '.bench/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are deliberately unused (interface conformance, destructuring).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-control-regex': 'off', // terminal-escape and secret scanners match control characters on purpose
      // A lazy require() is how Lore keeps start-up cheap (SDKs, zod, better-sqlite3 load on first use);
      // in src it has one form, checked below.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...lazyLoading] },
  },
  {
    // The store's write path takes lists of any length (a model's reply, a teammate's harvest): a list
    // spread into a call puts every element on the call stack, which throws past about 120,000.
    files: ['src/core/base/**/*.ts', 'src/core/model/**/*.ts', 'src/core/store/**/*.ts', 'src/core/services/harvest/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...lazyLoading, ...unboundedSpreads] },
  },
  {
    // Tests read the CLI's and servers' JSON replies loosely on purpose.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [vscodeOnly], patterns: [...lsp('src/core'), ...layers('src/core', 'extension', 'server', 'cli', 'mcp', 'shared')] },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    plugins: { lore: { rules: { 'engine-tiers': engineTiers } } },
    rules: { 'lore/engine-tiers': 'error' },
  },
  {
    // No write through a link in the store (design.md): above base, files and folders are written,
    // appended, made, moved and removed only through base's writers, which check for links first
    // (src/core/base/storeLinks.ts, atomicWrite.ts, guardedReplace.ts); and no read through a link
    // that leads out of the store (readText.ts), whose target could be a key or a credentials file.
    files: ['src/core/store/**/*.ts', 'src/core/services/**/*.ts', 'src/server/**/*.ts', 'src/mcp/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...[
          ['writeFileSync', 'writeFileAtomic (base/atomicWrite.ts)'],
          ['appendFileSync', 'appendNoFollow (base/storeLinks.ts)'],
          ['renameSync', 'renameNoFollow (base/storeLinks.ts)'],
          ['mkdirSync', 'mkdirNoFollow (base/storeLinks.ts)'],
          ['copyFileSync', 'writeFileAtomic (base/atomicWrite.ts)'],
          ['cpSync', 'writeFileAtomic (base/atomicWrite.ts)'],
          ['rmSync', 'removeNoFollow (base/storeLinks.ts)'],
          ['unlinkSync', 'removeNoFollow (base/storeLinks.ts)'],
          ['rmdirSync', 'removeNoFollow (base/storeLinks.ts)'],
        ].map(([property, instead]) => ({
          object: 'fs',
          property,
          message: `Write through ${instead}: it refuses a symbolic link in the store, which could point anywhere.`,
        })),
        // No read through a link out of the store either: base's readers take one for a missing file.
        ...[
          ['readFileSync', 'readStoreFile or readTextIfExists'],
          ['openSync', 'openStoreFile, or appendNoFollow to write'],
          ['createReadStream', 'readStoreFile'],
        ].map(([property, instead]) => ({
          object: 'fs',
          property,
          message: `Read through ${instead} (base/readText.ts): a link in the store that leads out of it could name a key or a credentials file.`,
        })),
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [vscodeOnly],
          patterns: [
            { group: ['vscode-languageclient', 'vscode-languageclient/*'], message: 'The server does not use the client.' },
            ...layers('src/server', 'extension', 'cli', 'mcp'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [vscodeOnly], patterns: [...lsp('src/mcp'), ...layers('src/mcp', 'extension', 'server', 'cli', 'shared')] },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    // The CLI hosts the MCP server (`lore mcp`), so cli → mcp is allowed.
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [vscodeOnly], patterns: [...lsp('src/cli'), ...layers('src/cli', 'extension', 'server', 'shared')] },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodeOnly], patterns: layers('src/shared', 'extension', 'server', 'cli', 'mcp') }],
    },
  },
  {
    files: ['src/extension/**/*.ts'],
    // The server runs in its own process: the extension reaches it through the protocol only.
    rules: {
      'no-restricted-imports': ['error', { patterns: layers('src/extension', 'server', 'cli', 'mcp') }],
      // One writer per window: the language server writes the store (src/shared/storeProtocol.ts),
      // so the extension host loads none of core's write paths (their types are fine: erased).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+core/(${EXTENSION_FORBIDDEN_WRITERS.join('|')})$`,
              allowTypeImports: true,
              message: 'The extension host does not write the store: send a request to the language server (src/shared/storeProtocol.ts).',
            },
          ],
        },
      ],
    },
  },
);
