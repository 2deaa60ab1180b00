import { earlyAndOwnBoxes } from './early-top.js';
import { PHONE, sendContract } from './phone-support.js';
import {
  enterSigningCode,
  fillCustomerContract,
  invitationLink,
  signingDocument,
} from './signature-support.js';
import { expect, test } from './support.js';

test('the signing page’s early heading takes the place of the page’s own, on a phone and a desktop', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const sent = await sendContract(browser, 'PL-10002', fillCustomerContract);
  const context = await browser.newContext(PHONE);
  const phone = await context.newPage();
  const expectSamePlace = async (step: string) => {
    const boxes = await earlyAndOwnBoxes(
      phone,
      'signing-app',
      [phone.locator('h1.signing-skeleton-title')],
      [phone.getByRole('heading', { level: 1 })],
    );
    const width = phone.viewportSize()?.width;
    expect(boxes.early[0], `the early heading of ${step} at ${width} px`).not.toBeNull();
    expect(boxes.own, `the heading of ${step} at ${width} px`).toEqual(boxes.early);
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
