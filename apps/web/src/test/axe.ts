import axe from 'axe-core';
import { expect } from 'vitest';

/** The WCAG 2.2 A and AA rules, as e2e/axe.ts runs them in the browser. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Fails with each serious or critical axe-core violation of what is rendered now. jsdom lays nothing
 * out: contrast is left to the browser tests (e2e/axe.ts); names, roles and structure are checked here.
 */
export async function expectNoSeriousViolations(root: Element = document.body): Promise<void> {
  const results = await axe.run(root, {
    runOnly: { type: 'tag', values: WCAG_TAGS },
    rules: { 'color-contrast': { enabled: false } },
  });
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.html),
    }));
  expect(serious).toEqual([]);
}

/** A page's headings open with its h1 and never skip a level. */
export function expectHeadingsInOrder(root: Element = document.body): void {
  const levels = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((heading) =>
    Number(heading.tagName[1]),
  );
  expect(levels[0], 'the page opens with its h1').toBe(1);
  levels.forEach((level, index) => {
    expect(
      level - (levels[index - 1] ?? 0),
      `heading ${index + 1} skips a level: ${levels.join(', ')}`,
    ).toBeLessThanOrEqual(1);
  });
}
