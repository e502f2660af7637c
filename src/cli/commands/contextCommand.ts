/**
 * `lore context`: prints the context an agent would get, compiled within a token budget (stable
 * layers first, then the turn), and with --json "why this context": per slot the bytes, what was
 * included and cut, and which topics fired at which tier and why.
 */
import * as path from 'node:path';
import { DEFAULT_BUDGET_TOKENS } from '../../core/services/context/constants';
import { isNetworkVendor } from '../../core/services/providers/endpoints';
import { createAdapter, PROVIDER_NAMES } from '../../core/services/providers/providerRegistry';
import { loadStoreConfig } from '../../core/store/storeConfig';
import type { TopicGate } from '../../core/services/topics/topicGate';
import { command, type Parsed } from '../command';
import { EXIT_OK, UsageError, cwdOf, envOf, parsePositiveNumber, printable, resolveArg, type Output } from '../cliSupport';
import { lazy } from '../../core/base/lazy';

const topicGateModule = lazy(
  () => require('../../core/services/topics/topicGate') as typeof import('../../core/services/topics/topicGate'),
);
const explainContextModule = lazy(
  () => require('../../core/services/topics/explainContext') as typeof import('../../core/services/topics/explainContext'),
);
const hookContextModule = lazy(
  () => require('../../core/services/hooks/hookContext') as typeof import('../../core/services/hooks/hookContext'),
);

const OPTIONS = {
  files: { type: 'string', multiple: true },
  message: { type: 'string' },
  budget: { type: 'string' },
  topic: { type: 'string', multiple: true },
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'no-gate': { type: 'boolean' },
  session: { type: 'string' },
} as const;

/** The gate of the configured provider, or undefined with the reason there is none. */
function configuredGate(
  values: { provider?: string; model?: string; 'base-url'?: string; 'no-gate'?: boolean },
  io: Output,
): { gate?: TopicGate; why?: string } {
  if (values['no-gate']) return { why: '--no-gate was given' };
  const name = (values.provider ?? envOf(io).LORE_PROVIDER ?? '').trim().toLowerCase();
  if (!name || name === 'rules')
    return { why: name === 'rules' ? 'the rules provider is not a model' : 'no model is configured (--provider or LORE_PROVIDER)' };
  if (!isNetworkVendor(name)) throw new UsageError(`unknown provider "${name}"; choose one of ${PROVIDER_NAMES.join(', ')}`);
  const adapter = createAdapter(name, { model: values.model, baseUrl: values['base-url'], env: envOf(io) });
  const { adapterGate } = topicGateModule();
  return { gate: adapterGate(adapter, values.model) };
}

export const contextCommand = command({
  name: 'context',
  usage: [
    '[--root DIR] [--files F...] [--message TEXT] [--budget TOKENS] [--topic NAME...] [--session ID] [--provider NAME] [--model M] [--base-url URL] [--no-gate] [--json]',
  ],
  briefInIndex: true,
  description: `Prints the compiled context: role instructions, the knowledge digest ({knowledge} block, only
while digest.md exists), the notes of the files in scope, the topics the message activates, then
the active files, the items that best match the message and the message. Everything up to the
topics is the stable prefix that provider prompt caches reuse across turns.
The context fits a token budget (UTF-8 bytes / 4): --budget, else config.json context.budgetTokens,
else ${DEFAULT_BUDGET_TOKENS}. Slots fill in priority order: P0 fixed (role, message), P1 digest and notes,
P2 topics and their subscriptions, P3 matching items, P4 history; what does not fit is cut.
Topics (.lore/topics/*.md, see lore topics): tiers 1 and 2 run locally; gated topics ask the gate,
the cheapest model of --provider (or LORE_PROVIDER: ${PROVIDER_NAMES.filter((p) => p !== 'rules').join(', ')}; --model to choose
another), once per message and topic (cached). Without one (or with --no-gate) gated topics follow
the no-gate rows of the bypass table and are otherwise dropped. --topic activates a topic by name.
--session ID adds the topics the output watchers left for that agent session's next turn (as
the hook would inject them), without taking them: the session's next turn still gets them.
--files may be repeated, and further arguments are files too. --json prints {text, stablePrefixLength
(UTF-16 code units), stablePrefixBytes (UTF-8 bytes), boundaries, budgetTokens, tokens, slots (bytes,
included, cut), hits (the P3 items included), topics (active, decisions with tier, tier-1 match, score,
gate and reason, problems, gate)}.`,
  options: OPTIONS,
  run: context,
});

async function context(parsed: Parsed<typeof OPTIONS>, io: Output): Promise<number> {
  const { values, positionals, paths } = parsed;
  // Paths are typed relative to where the user stands, not to the workspace.
  const files = [...(values.files ?? []), ...positionals].map((f) => resolveArg(io, f));
  const { config, warning } = loadStoreConfig(paths.config);
  if (warning) io.err(`warning: ${warning}`);
  const budgetTokens =
    values.budget !== undefined
      ? Math.round(parsePositiveNumber(values.budget, '--budget'))
      : (config.contextBudgetTokens ?? DEFAULT_BUDGET_TOKENS);
  if (budgetTokens < 256) throw new UsageError(`--budget expects at least 256 tokens, not ${budgetTokens}`);
  const { gate, why } = configuredGate(values, io);
  const { explainContext, explanationJson } = explainContextModule();
  const message = values.message ?? '';
  // The search engine is loaded here, not with every command.
  const { knowledgeHits } = hookContextModule();
  const hits = (digest: string | undefined, fileNotes: Parameters<typeof knowledgeHits>[3]) =>
    knowledgeHits(paths, message, digest, fileNotes);
  const sessionId = values.session?.trim();
  if (values.session !== undefined && !sessionId) throw new UsageError('--session expects a session id');
  const explained = await explainContext(paths, {
    message,
    files,
    named: values.topic,
    budgetTokens,
    gate,
    noGateReason: why,
    via: 'cli',
    hits,
    sessionId,
    keepPending: true,
  });
  const { compiled, topics } = explained;
  for (const missing of explained.missingFiles) io.err(`warning: no such file: ${printable(path.relative(cwdOf(io), missing) || missing)}`);
  if (!explained.hasDigest) io.err(`note: no digest at ${paths.digest}; the context has no {knowledge} block`);
  for (const name of values.topic ?? [])
    if (!topics.activation.active.some((a) => a.topic.name === name)) io.err(`warning: no valid topic named ${printable(name)}`);
  for (const p of topics.problems)
    io.err(`warning: ${printable(p.file)}${p.line ? `:${p.line}` : ''}: ${printable(p.message)} (topic skipped)`);
  for (const p of topics.subscriptionProblems) io.err(`warning: topic subscription ${printable(p)}`);
  if (values.json) {
    io.out(JSON.stringify(explanationJson(explained), null, 2));
    return EXIT_OK;
  }
  // The text already ends with a newline; io.out would not add a second one.
  io.out(compiled.text);
  io.err(
    `stable prefix: ${compiled.stablePrefixBytes} of ${Buffer.byteLength(compiled.text, 'utf8')} bytes (${compiled.boundaries.map((b) => b.layer).join(', ') || 'empty'})`,
  );
  io.err(
    `budget: ${compiled.tokens} of ${compiled.budgetTokens} tokens; ${compiled.slots.map((s) => `${s.slot} ${s.bytes} B${s.cut.length ? ` (${s.cut.length} cut)` : ''}`).join(', ')}`,
  );
  for (const d of topics.activation.decisions)
    io.err(`topic ${printable(d.topic)}: ${d.active ? `active (tier ${d.tier})` : 'not active'}: ${printable(d.reason)}`);
  return EXIT_OK;
}
