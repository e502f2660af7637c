// The first run as a newcomer clicks through it, for `screenshots.mjs --first-run`: the workbench opened
// on a project with no store (test/integration/firstRunMachine.mjs plants real Claude Code and Codex
// sessions), the first view's button, Import Conversations…, the offline extractor, the dry run, the
// plan, Apply, and the knowledge written. Saves docs/images/first-run-*.png; the same walk is
// asserted by test/integration/suite/firstRunPath.itest.ts.

/** Runs the walk with screenshots.mjs's helpers (`page` is the workbench's). */
export async function firstRunShots({ page, step, shot, runCommand, quickOpen, clearNotifications, widenSidebar }) {
  const sidebar = page.locator('.part.sidebar');
  const quickInput = page.locator('.quick-input-widget');
  const toast = (text) => page.locator('.notifications-toasts .notification-list-item', { hasText: text });

  await step('a project with no store: the Lore views', async () => {
    await runCommand('View: Show Lore');
    await sidebar.locator('.pane-header', { hasText: 'Digest' }).waitFor();
    await sidebar.getByText('Initialize Store').first().waitFor();
    await page.waitForTimeout(1500);
    await clearNotifications();
    await widenSidebar();
    await shot('first-run-1-no-store.png');
  });

  await step("the first view's first button", async () => {
    await sidebar.getByText('Initialize Store').first().click();
    await sidebar.getByText('Harvest Conversations…').first().waitFor();
    // "Knowledge store created at …" would cover the next picture.
    await clearNotifications();
  });

  await step("Import Conversations…: this project's sessions", async () => {
    // Not runCommand: the command answers with a QuickPick of its own.
    await page.keyboard.press('F1');
    await quickInput.locator('input.input').fill('>Lore: Import Conversations');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Import Conversations' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await quickInput.locator('.quick-input-title', { hasText: 'import conversations of' }).waitFor({ state: 'visible' });
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible' });
    await page.waitForTimeout(800);
    await shot('first-run-2-sessions.png');
    // The new sessions come picked: accept them.
    await page.keyboard.press('Enter');
  });

  await step('how to distill: the offline extractor', async () => {
    await quickInput.locator('.quick-input-title', { hasText: 'how should conversations be distilled' }).waitFor({ state: 'visible' });
    await quickInput.locator('input.input').fill('offline');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'offline extractor' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
  });

  await step('the dry run: distill and preview', async () => {
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible' });
    await page.waitForTimeout(500);
    await shot('first-run-3-dry-run.png');
    await dialog.getByRole('button', { name: 'Distill and Preview' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  await step('the plan: a diff of every change, nothing written yet', async () => {
    await page.locator('.editor-instance .monaco-diff-editor').first().waitFor({ state: 'visible' });
    await toast('Lore harvest plan').waitFor({ state: 'visible' });
    await page.waitForTimeout(1500);
    await page.mouse.move(25, 500);
    await shot('first-run-4-plan.png');
  });

  await step('apply, and the knowledge written', async () => {
    // The plan's notification may have gone by now (the issue this walk watches): the command is the same.
    if (await toast('Lore harvest plan').isVisible()) {
      await toast('Lore harvest plan').getByRole('button', { name: 'Apply', exact: true }).click();
    } else {
      await runCommand('Lore: Apply Harvest');
    }
    await toast('Lore: harvested').waitFor({ state: 'visible' });
    await runCommand('View: Close All Editors');
    await runCommand('View: Show Lore');
    const digest = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Digest' }) });
    await digest.locator('.monaco-list-row').first().waitFor({ state: 'visible' });
    await quickOpen('facts.md', '.lore');
    await page.locator('.tabs-container .tab', { hasText: 'facts.md' }).waitFor({ state: 'visible' });
    await clearNotifications();
    await page.mouse.move(25, 500);
    await page.waitForTimeout(1000);
    await shot('first-run-5-knowledge.png');
  });
}
