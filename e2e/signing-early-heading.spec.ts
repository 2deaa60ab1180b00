import type { Page } from '@playwright/test';
import { PHONE, sendContract } from './phone-support.js';
import {
  enterSigningCode,
  fillCustomerContract,
  invitationLink,
  signingDocument,
} from './signature-support.js';
import { expect, test } from './support.js';

type Box = { x: number; y: number; width: number; height: number };

/**
 * The signing link's page shows the document's heading before its code has loaded
 * (apps/web/src/app/signing/early-heading.ts); the page then renders the same heading in the same place.
 * Another place, or a larger box, would move the page under the reader's eyes and count as a later paint.
 * The page's code is held back until the early heading has been measured.
 */
async function headingBoxes(page: Page): Promise<{ early: Box | null; page: Box | null }> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/signing-app-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  const early = page.locator('h1.signing-skeleton-title');
  await expect(early).toBeVisible();
  const earlyBox = await early.boundingBox();
  release();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(early).toHaveCount(0);
  await expect(heading).toBeVisible();
  const pageBox = await heading.boundingBox();
  await page.unroute('**/assets/signing-app-*.js');
  return { early: earlyBox, page: pageBox };
}

test('the signing page’s early heading takes the place of the page’s own, on a phone and a desktop', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const sent = await sendContract(browser, 'PL-10002', fillCustomerContract);
  const context = await browser.newContext(PHONE);
  const phone = await context.newPage();
  const expectSamePlace = async (step: string) => {
    const boxes = await headingBoxes(phone);
    const width = phone.viewportSize()?.width;
    expect(boxes.early, `the early heading of ${step} at ${width} px`).not.toBeNull();
    expect(boxes.page, `the heading of ${step} at ${width} px`).toEqual(boxes.early);
  };
  try {
    await phone.goto(await invitationLink('klara@kunde.example', sent));
    await expectSamePlace('the code step');
    await enterSigningCode(phone, 'klara@kunde.example', sent);
    await expect(signingDocument(phone)).toBeVisible({ timeout: 15_000 });

    await expectSamePlace('the signing form');
    await phone.setViewportSize({ width: 1280, height: 800 });
    await expectSamePlace('the signing form');
  } finally {
    await context.close();
  }
});
