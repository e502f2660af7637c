/**
 * dist/hook.js: `lore hook` alone. Agents start it before every prompt, so what the process loads
 * is most of what a prompt waits for; the full CLI bundle (every command, the importers, zod) cost
 * more to read and run than the hook's own work. dist/cli.js loads this bundle instead of
 * dist/cliMain.js when the command is `hook`; the command itself is the same code either way.
 */
import { EXIT_OK, stdio } from './cliSupport';
import { hookCommand } from './commands/hookCommand';

/** Runs `lore hook` with the process's arguments (after `hook`); it always exits 0. */
export function runCli(): void {
  hookCommand.run(process.argv.slice(3), stdio).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = EXIT_OK; // hookCommand never rejects; a hook must not fail the agent regardless.
    },
  );
}
