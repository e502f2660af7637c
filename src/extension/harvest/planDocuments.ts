/**
 * Proposed file contents of a pending harvest, served read-only under the `lore-plan:` scheme
 * so VS Code's diff editor can show "current ↔ proposed" before anything is written.
 */
import * as vscode from 'vscode';
import type { ShownPlan } from '../../shared/protocol';

export const PLAN_SCHEME = 'lore-plan';

/** `lore-plan:/<store-relative file>?side=before|after&v=<version>`; the version busts VS Code's cache. */
export function toPlanUri(file: string, side: 'before' | 'after', version: number): vscode.Uri {
  return vscode.Uri.from({ scheme: PLAN_SCHEME, path: '/' + file, query: `side=${side}&v=${version}` });
}

function fromPlanUri(uri: vscode.Uri): { file: string; side: 'before' | 'after' } {
  const side = new URLSearchParams(uri.query).get('side') === 'before' ? 'before' : 'after';
  return { file: uri.path.replace(/^\//, ''), side };
}

export class PlanDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private plan: ShownPlan | undefined;
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  version = 0;

  setPlan(plan: ShownPlan | undefined): void {
    this.plan = plan;
    this.version++;
    // Diffs open on the plan show it as it is now (an item left out from the Harvest Plan view).
    for (const document of vscode.workspace.textDocuments) if (document.uri.scheme === PLAN_SCHEME) this.emitter.fire(document.uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const { file, side } = fromPlanUri(uri);
    const change = this.plan?.changes.find((c) => c.file === file);
    if (!change) return '';
    return (side === 'before' ? change.before : change.after) ?? '';
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
