/**
 * package.json as the Marketplace and VS Code read it: the walkthrough's media and links resolve,
 * its steps complete on events that can happen, and the workspace-trust and virtual-workspace
 * capabilities are declared with settings that exist. A renamed command or a moved file breaks a
 * walkthrough silently in VS Code (a dead button, a step that never ticks); this notices.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

interface Step {
  id: string;
  description: string;
  media: { markdown?: string; image?: string | Record<string, string>; svg?: string };
  completionEvents?: string[];
  when?: string;
}

interface Manifest {
  icon?: string;
  capabilities?: {
    untrustedWorkspaces?: { supported: boolean | 'limited'; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces?: boolean | { supported: boolean | 'limited'; description?: string };
  };
  contributes: {
    commands: Array<{ command: string }>;
    walkthroughs: Array<{ id: string; steps: Step[] }>;
    configuration: { properties: Record<string, unknown> };
    viewsWelcome: Array<{ view: string; contents: string; when?: string }>;
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const commands = new Set(manifest.contributes.commands.map((c) => c.command));
const extensionSource = (function read(dir: string): string {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? read(path.join(dir, e.name)) : fs.readFileSync(path.join(dir, e.name), 'utf8')))
    .join('\n');
})(path.join(root, 'src', 'extension'));

/** `command:lore.x` and `command:lore.x?args` links in a description. */
function linkedCommands(text: string): string[] {
  return [...text.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]);
}

describe('package.json (the extension manifest)', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;

  it('contributes the first-run walkthrough with its steps in order', () => {
    assert.equal(walkthrough.id, 'lore.firstRun');
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['createStore', 'findConversations', 'chooseDistiller', 'firstHarvest', 'fileNotes', 'connectAgents', 'captureHooks'],
    );
  });

  it("has every step's media on disk, and every image those markdown files show", () => {
    for (const step of walkthrough.steps) {
      const files = [
        step.media.markdown,
        step.media.svg,
        ...(typeof step.media.image === 'string' ? [step.media.image] : Object.values(step.media.image ?? {})),
      ].filter((f): f is string => !!f);
      assert.ok(files.length > 0, `${step.id} has media`);
      for (const file of files) {
        assert.ok(fs.existsSync(path.join(root, file)), `${step.id}: ${file} exists`);
        if (!file.endsWith('.md')) continue;
        for (const [, image] of fs.readFileSync(path.join(root, file), 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) {
          assert.ok(fs.existsSync(path.join(root, path.dirname(file), image)), `${file}: image ${image} exists`);
        }
      }
    }
  });

  it('links and completes steps only on commands Lore contributes', () => {
    for (const step of walkthrough.steps) {
      assert.ok(step.completionEvents?.length, `${step.id} completes on an event`);
      const named = [
        ...linkedCommands(step.description),
        ...step.completionEvents.filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length)),
      ];
      for (const command of named) {
        if (step.when) continue;
        assert.ok(commands.has(command), `${step.id}: ${command} is contributed`);
      }
    }
    // Every step is shown: none waits for a command that this Lore lacks.
    assert.deepEqual(
      walkthrough.steps.filter((s) => s.when).map((s) => s.id),
      [],
    );
  });

  it('completes steps on context keys the extension sets', () => {
    const keys = walkthrough.steps.flatMap((s) =>
      (s.completionEvents ?? []).filter((e) => e.startsWith('onContext:')).map((e) => e.slice('onContext:'.length)),
    );
    // VS Code records a key that already holds when it registers the walkthrough (Lore may activate
    // first) without ticking the step, and never ticks it after: each such step also completes on
    // the key once the walkthrough page is shown, which happens after registering.
    const shown = ' && activeEditor == gettingStartedPage';
    assert.deepEqual(keys, [
      'lore.storeExists',
      `lore.storeExists${shown}`,
      'lore.distillChosen',
      `lore.distillChosen${shown}`,
      'lore.harvestPending',
    ]);
    for (const key of keys.map((k) => k.replace(shown, ''))) {
      assert.ok(extensionSource.includes(`'${key}'`), `src/extension sets ${key}`);
    }
  });

  it('links welcome content only to commands that exist', () => {
    for (const welcome of manifest.contributes.viewsWelcome) {
      for (const command of linkedCommands(welcome.contents)) {
        // VS Code's own: the workbench's actions and vscode.openFolder (the no-folder welcome's Open Folder…).
        assert.ok(
          commands.has(command) || command.startsWith('workbench.') || command === 'vscode.openFolder',
          `${welcome.view}: ${command}`,
        );
      }
    }
  });

  it('has a 128×128 PNG icon for the Marketplace (vsce rejects SVG icons)', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    const png = fs.readFileSync(path.join(root, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  });

  it('declares limited support for untrusted workspaces, restricting settings that exist', () => {
    const untrusted = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(untrusted?.supported, 'limited');
    assert.ok(untrusted.description);
    const restricted = untrusted.restrictedConfigurations ?? [];
    // A workspace must not be able to send conversations or the stored key elsewhere, nor widen what is read.
    for (const setting of ['lore.provider', 'lore.baseUrl', 'lore.sources.extra']) assert.ok(restricted.includes(setting), setting);
    for (const setting of restricted) assert.ok(setting in manifest.contributes.configuration.properties, `${setting} is a setting`);
  });

  it('declares that virtual workspaces are not supported, and why', () => {
    const virtual = manifest.capabilities?.virtualWorkspaces;
    assert.ok(typeof virtual === 'object');
    assert.equal(virtual.supported, false);
    assert.ok(virtual.description);
  });
});
