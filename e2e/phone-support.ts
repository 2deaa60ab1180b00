import { type Browser, expect, type Locator, type Page } from '@playwright/test';
import { loadMatch, openForm, submitButton } from './forms-support.js';
import { chooseCountersignatory } from './signature-support.js';
import { DEMO_ACCOUNTS, newUserPage, signedIn } from './support.js';

/** A phone as Chromium's mobile emulation makes one: 360 × 740 CSS pixels, touch, twice the pixels. */
export const PHONE = {
  viewport: { width: 360, height: 740 },
  hasTouch: true,
  isMobile: true,
  deviceScaleFactor: 2,
};

/** Legal sends the contract of `fill` from the sender view, countersigned by the company; answers when it went out. */
export async function sendContract(browser: Browser, matchId: string, fill: (page: Page) => Promise<void>) {
  const page = await newUserPage(browser);
  await signedIn(page, DEMO_ACCOUNTS.legal);
  await loadMatch(page, matchId);
  await openForm(page, '/contract/docusign', matchId);
  await fill(page);
  const [senderView] = await Promise.all([page.waitForEvent('popup'), submitButton(page).click()]);
  await expect(senderView.getByRole('button', { name: 'Senden' })).toBeEnabled();
  await chooseCountersignatory(senderView);
  const sent = Date.now();
  await senderView.getByRole('button', { name: 'Senden' }).click();
  await expect(senderView.getByText('Versendet').first()).toBeVisible();
  await page.context().close();
  return sent;
}

type TouchType = 'touchStart' | 'touchMove' | 'touchEnd';

/**
 * How long a finger takes from lifting off one place to touching the next. Chromium drops the click of a
 * tap that begins within its double-tap window after the previous touch ended: here a tap on
 * `Unterschreiben` right after the stroke on the pad clicked nothing, the same tap a second later signed.
 */
const FINGER_TRAVEL_MS = 1000;
const lastLifted = new WeakMap<Page, number>();

/**
 * Touch events through Chromium's DevTools protocol (Playwright itself only taps), each with the time it
 * happens on the finger's own clock, so that a loaded machine that delivers them late does not change
 * the gesture.
 */
async function finger(page: Page) {
  const travelled = Date.now() - (lastLifted.get(page) ?? 0);
  if (travelled < FINGER_TRAVEL_MS) await page.waitForTimeout(FINGER_TRAVEL_MS - travelled);
  const cdp = await page.context().newCDPSession(page);
  let clock = Date.now() / 1000;
  return {
    async touch(type: TouchType, x: number, y: number, afterSeconds = 0.02) {
      clock += afterSeconds;
      await cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
        timestamp: clock,
      });
      if (type === 'touchEnd') lastLifted.set(page, Date.now());
    },
    detach: () => cdp.detach(),
  };
}

/** A finger's short tap on the middle of `target`, as a signer taps a checkbox or a button. */
export async function tapWithFinger(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to tap');
  const tap = await finger(page);
  await tap.touch('touchStart', box.x + box.width / 2, box.y + box.height / 2);
  await tap.touch('touchEnd', 0, 0, 0.05);
  await tap.detach();
}

/** A finger's stroke across the signature pad. */
export async function drawWithFinger(phone: Page) {
  const pad = phone.getByRole('img', { name: 'Unterschrift zeichnen (optional)' });
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('no signature pad');
  const stroke = await finger(phone);
  const scrolledBefore = await phone.evaluate(() => window.scrollY);
  await stroke.touch('touchStart', box.x + 20, box.y + box.height / 2);
  for (let i = 1; i <= 12; i++)
    await stroke.touch('touchMove', box.x + 20 + i * 20, box.y + box.height / 2 + (i % 2 ? 25 : -25));
  await stroke.touch('touchEnd', 0, 0);
  await stroke.detach();
  // The finger drew: the pad shows ink, and the page stayed where it was (touch-action: none).
  expect(await phone.evaluate(() => window.scrollY)).toBe(scrolledBefore);
  const inked = await pad.evaluate((canvas) => {
    const context = (canvas as HTMLCanvasElement).getContext('2d');
    const { data } = context?.getImageData(
      0,
      0,
      (canvas as HTMLCanvasElement).width,
      (canvas as HTMLCanvasElement).height,
    ) ?? { data: [] };
    return Array.prototype.some.call(data, (value: number, index: number) => index % 4 === 3 && value > 0);
  });
  expect(inked).toBe(true);
}
