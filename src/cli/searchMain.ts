/**
 * dist/search.js: `lore search` alone. A search on a store whose index is current is a query and
 * a few stats, and loading the whole CLI bundle (every command, the importers, the write path)
 * was a larger share of it than the query. dist/cli.js loads this bundle instead of
 * dist/cliMain.js when the command is `search`; the command itself is the same code either way.
 */
import { preferBuiltinSqlite } from '../core/base/sqliteDriver';
import { directStdio } from './cliSupport';
import { searchCommand } from './commands/searchCommand';
import { exitWith, runCommand } from './runCommand';

/** Runs `lore search` with the process's arguments (after `search`). */
export function runCli(): void {
  preferBuiltinSqlite();
  // One object per run, as main() makes: what the run resolved (its store) is remembered against it.
  exitWith(runCommand('search', searchCommand, process.argv.slice(3), directStdio()));
}
