import { expect, type Locator, type Page } from '@playwright/test';

type Box = { x: number; y: number; width: number; height: number } | null;

/**
 * A link page's entry shows the page's top before its code has loaded (apps/web/src/app/link-page/early-top.ts);
 * the page's code then renders the same in the same place. Another place or a larger box would move the
 * page under the reader's eyes and count as a later paint.
 *
 * The boxes of the `early` elements and of the page's `own` ones that take their place, in the same order:
 * the page is reloaded with its code (the chunk `codeChunk` names) held back until the early ones have been
 * measured, and each list is measured once its last element is visible.
 */
export async function earlyAndOwnBoxes(
  page: Page,
  codeChunk: string,
  early: Locator[],
  own: Locator[],
): Promise<{ early: Box[]; own: Box[] }> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pattern = `**/assets/${codeChunk}-*.js`;
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  try {
    await page.reload();
    await expect(early.at(-1) as Locator).toBeVisible();
    const earlyBoxes = await Promise.all(early.map((element) => element.boundingBox()));
    release();
    for (const element of early) await expect(element).toHaveCount(0);
    await expect(own.at(-1) as Locator).toBeVisible();
    const ownBoxes = await Promise.all(own.map((element) => element.boundingBox()));
    return { early: earlyBoxes, own: ownBoxes };
  } finally {
    release();
    await page.unroute(pattern);
  }
}
