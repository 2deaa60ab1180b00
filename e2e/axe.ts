import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The WCAG 2.2 A and AA rules (and those of 2.0 and 2.1 they build on). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** How long a page must have had no running animation before axe looks at it: several frames. */
const CALM_FOR_MS = 150;

/** superdoc's font-size control under the German name we give it. */
const SUPERDOC_KNOWN_GAPS = ['[aria-label="Schriftgröße"]'];

/**
 * Runs axe-core on the page as it is now and fails with a readable list of every serious or critical
 * violation: rule, impact, the elements and what axe says is wrong with them.
 */
export async function expectAccessible(
  page: Page,
  state: string,
  { exceptSuperdoc = false }: { exceptSuperdoc?: boolean } = {},
): Promise<void> {
  // Legacy mode runs axe in the page and its frames themselves. The default opens a blank page for every
  // run, evaluates axe-core's half a megabyte of script there a second time and merges the results in it,
  // which only cross-origin frames need; ours (the PDF viewer's) are blob: URLs of the app's own origin,
  // which legacy mode checks as well. Alternating the two on the same pages, a run took 1.5–4.2 s instead
  // of 2.7–7.3 s (medians on a busy machine): the larger part of a check.
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode();
  // superdoc's font-size control breaks an ARIA rule (an unlabelled input nested in a control) that its
  // API gives no way to fix; it is left out where superdoc shows the editor, and is an open
  // accessibility gap, not a pass. (Its text area is repaired by the SPA: lib/superdoc-aria.ts.)
  if (exceptSuperdoc) {
    for (const selector of SUPERDOC_KNOWN_GAPS) builder = builder.exclude(selector);
  }
  // A page in the middle of a transition (a dialog fading in, a pressed button easing back, a
  // notification) blends its colours with what is behind it: axe then measures a contrast nobody reads.
  // Wait until every finite animation has ended; loaders spin for ever and are left out. And until it has
  // stayed so for a moment: a Mantine notification is first drawn invisible and starts its transition
  // only after that (react-transition-group), and a page between the two has no animation yet.
  await page.evaluate(() => {
    (window as { axeCalmSince?: number }).axeCalmSince = undefined;
  });
  await page.waitForFunction((calmForMs) => {
    const state = window as { axeCalmSince?: number };
    const calm = document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
      );
    if (!calm) {
      state.axeCalmSince = undefined;
      return false;
    }
    state.axeCalmSince ??= performance.now();
    return performance.now() - state.axeCalmSince >= calmForMs;
  }, CALM_FOR_MS);
  if (exceptSuperdoc) {
    // superdoc builds its toolbar anew when it shows it (and on resize), and names each control a moment
    // after drawing it (a label, or the value it shows, as the font's name): an axe run in that moment
    // reports a button without a name that nobody could reach. Wait until the visible toolbar's controls
    // are named; one that stays unnamed is still reported.
    await page
      .waitForFunction(
        () =>
          Array.from(document.querySelectorAll<HTMLElement>('.sd-toolbar-item[role="button"]')).every(
            (button) =>
              button.checkVisibility({ visibilityProperty: true }) === false ||
              Boolean(button.ariaLabel || button.textContent?.trim()),
          ),
        undefined,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
  }
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s+/g, ' ')}`,
    ),
  );
  expect(report, `axe on ${state}`).toEqual([]);
}
