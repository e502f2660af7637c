/** `lore trust`: the person's word that a store's config.json may widen what agents write and what Lore commits. */
import { isStoreTrusted, setStoreTrust } from '../../core/store/storeTrust';
import { command, type Parsed } from '../command';
import { EXIT_OK, printable, type Output } from '../cliSupport';

export const trustCommand = command({
  name: 'trust',
  usage: ['[--revoke] [--root DIR]'],
  description: `Lets this store's config.json turn on what widens what agents may write or what Lore commits
("agentWrites": "direct", "git": {"commit": "apply" | "interval"}). Until then Lore leaves those
values of a config.json at their defaults and says so once: the file comes with the repository,
and a repository you cloned is not yours to trust yet. The record is kept in your configuration
folder ($LORE_CONFIG_HOME, else $XDG_CONFIG_HOME/lore, else ~/.config/lore), never in the store.
lore init --git trusts the store it turns commits on for. --revoke takes the trust back.`,
  options: { revoke: { type: 'boolean' } },
  takes: { positionals: false, existingStore: true },
  run: trust,
});

async function trust(parsed: Parsed<{ revoke: { type: 'boolean' } }>, io: Output): Promise<number> {
  const { root } = parsed.paths;
  const trusted = !parsed.values.revoke;
  const was = isStoreTrusted(root);
  const file = setStoreTrust(root, trusted);
  if (parsed.values.json) io.out(JSON.stringify({ root, trusted, changed: was !== trusted, record: file }, null, 2));
  else if (trusted)
    io.out(
      `trusted ${printable(root)}: its config.json's agentWrites and git.commit apply now (recorded in ${printable(file)}; lore trust --revoke takes it back)`,
    );
  else
    io.out(
      `${printable(root)} is not trusted${was ? ' any more' : ''}: its config.json may not widen what agents write or what Lore commits (recorded in ${printable(file)})`,
    );
  return EXIT_OK;
}
