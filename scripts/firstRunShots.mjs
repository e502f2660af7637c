// The first run as a newcomer clicks through it, for `screenshots.mjs --first-run`: the workbench opened
// on a project with no store (test/integration/firstRunMachine.mjs plants real Claude Code and Codex
// sessions), the one view and its one button, Harvest Conversations…, the offline extractor, the dry
// run naming the sessions, the Harvest Plan view beside the diff, Apply, and the knowledge written.
// Saves docs/images/first-run-*.png; the same walk is asserted by
// test/integration/suite/firstRunPath.itest.ts.

/** Runs the walk with screenshots.mjs's helpers (`page` is the workbench's). */
export async function firstRunShots({ page, step, shot, runCommand, quickOpen, clearNotifications, widenSidebar, foldViews }) {
  const sidebar = page.locator('.part.sidebar');
  const quickInput = page.locator('.quick-input-widget');
  const toast = (text) => page.locator('.notifications-toasts .notification-list-item', { hasText: text });
  const pane = (title) => sidebar.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) });

  await step('a project with no store: one view, one button', async () => {
    await runCommand('View: Show Lore');
    // One view: VS Code titles the side bar with it ("Lore: Get Started") and draws no view header.
    await sidebar.locator('.title-label', { hasText: 'Get Started' }).waitFor();
    await sidebar.getByText('Harvest Conversations…').first().waitFor();
    await page.waitForTimeout(1500);
    await clearNotifications();
    await widenSidebar();
    await shot('first-run-1-no-store.png');
  });

  await step('the button: Harvest Conversations…, then how to distill', async () => {
    await sidebar.getByText('Harvest Conversations…').first().click();
    await quickInput.locator('.quick-input-title', { hasText: 'how should conversations be distilled' }).waitFor({ state: 'visible' });
    await quickInput.locator('input.input').fill('offline');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'offline extractor' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
  });

  await step("the dry run: this project's sessions by title", async () => {
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible' });
    await page.waitForTimeout(500);
    await shot('first-run-2-dry-run.png');
    await dialog.getByRole('button', { name: 'Distill and Preview' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  await step('the Harvest Plan view beside the diff, nothing written yet', async () => {
    await page.locator('.editor-instance .monaco-diff-editor').first().waitFor({ state: 'visible' });
    await pane('Harvest Plan').locator('.monaco-list-row').first().waitFor({ state: 'visible' });
    await toast('Lore harvest:').waitFor({ state: 'visible' });
    // Room for the plan's items: Get Started and Cache (the sessions' prompt caches) folded away.
    await foldViews(['Get Started', 'Cache']);
    await page.waitForTimeout(1500);
    await page.mouse.move(25, 500);
    await shot('first-run-3-plan.png');
  });

  await step('apply, and the knowledge written', async () => {
    // The view's own Apply (its title bar), where the plan waits however long the diff was read.
    await pane('Harvest Plan').locator('.pane-header').hover();
    await pane('Harvest Plan').locator('.pane-header .action-label[aria-label^="Apply"]').first().click();
    await toast('Lore: wrote').waitFor({ state: 'visible' });
    await runCommand('View: Close All Editors');
    await runCommand('View: Show Lore');
    // The view folded as Get Started is the Digest now.
    await foldViews(['Digest'], true);
    await pane('Digest').locator('.monaco-list-row').first().waitFor({ state: 'visible' });
    await pane('Ledger').locator('.monaco-list-row').first().waitFor({ state: 'visible' });
    // Room for the Digest and the Ledger's titles: Cache and Knowledge folded, the Ledger's "harvested" group open.
    await foldViews(['Cache', 'Knowledge']);
    const harvested = pane('Ledger').locator('.monaco-list-row', { hasText: 'harvested' }).first();
    if ((await harvested.getAttribute('aria-expanded')) === 'false') await harvested.click();
    await pane('Ledger').locator('.monaco-list-row').nth(1).waitFor({ state: 'visible' });
    await quickOpen('facts.md', '.lore');
    await page.locator('.tabs-container .tab', { hasText: 'facts.md' }).waitFor({ state: 'visible' });
    await clearNotifications();
    await page.mouse.move(25, 500);
    await page.waitForTimeout(1000);
    await shot('first-run-4-knowledge.png');
  });
}
