import type { Browser, Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import { fillDocusign } from './forms-support.js';
import { drawWithFinger, PHONE, sendContract, tapWithFinger } from './phone-support.js';
import {
  enterSigningCode,
  fillCustomerContract,
  invitationLink,
  signingDocument,
} from './signature-support.js';
import { expect, test } from './support.js';

/** Nothing on the page, and nothing in the document, scrolls sideways. */
async function expectNoSidewaysScrolling(phone: Page) {
  const widths = await phone.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
  const contract = await signingDocument(phone).evaluate((element) => ({
    content: element.scrollWidth,
    box: element.clientWidth,
  }));
  expect(contract.content).toBeLessThanOrEqual(contract.box);
}

/** The signer opens the link on a phone, reads the contract as text, draws with a finger and signs. */
async function signOnPhone(browser: Browser, to: string, name: string, contractText: RegExp, sent: number) {
  const context = await browser.newContext(PHONE);
  const phone = await context.newPage();
  try {
    await phone.goto(await invitationLink(to, sent));
    await enterSigningCode(phone, to, sent);
    // The contract as text in the page: no PDF plug-in, no picture of it.
    await expect(signingDocument(phone)).toContainText(contractText, { timeout: 15_000 });
    await expectNoSidewaysScrolling(phone);
    await expectAccessible(phone, 'the signing page on a phone');

    // The document scrolls under a finger to its end. Paragraphs are laid out as they come near the
    // screen (first-view.css), and a laid-out one may be taller than the line it held: as a finger goes on
    // swiping, the end is reached once the last ones are laid out.
    await expect
      .poll(() =>
        signingDocument(phone).evaluate((element) => {
          element.scrollTop = element.scrollHeight;
          return element.scrollTop + element.clientHeight >= element.scrollHeight - 1;
        }),
      )
      .toBe(true);

    const consent = phone.getByRole('checkbox', { name: /Ich stimme zu, dieses Dokument elektronisch/ });
    await tapWithFinger(phone, consent);
    await expect(consent).toBeChecked();
    await expect(phone.getByRole('textbox', { name: 'Dein vollständiger Name' })).toHaveValue(name);
    await drawWithFinger(phone);
    await expectNoSidewaysScrolling(phone);
    const sign = phone.getByRole('button', { name: 'Unterschreiben' });
    await sign.scrollIntoViewIfNeeded();
    const button = await sign.boundingBox();
    expect((button?.x ?? 0) + (button?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(
      PHONE.viewport.width,
    );
    await tapWithFinger(phone, sign);
    // Signing waits for the server's answer, which takes a while on a busy machine.
    await expect(phone.getByText(/Vielen Dank, du hast unterschrieben/)).toBeVisible({ timeout: 30_000 });
  } finally {
    await context.close();
  }
}

test.describe('signing on a phone (360 × 740, touch)', () => {
  test('a customer reads the contract as text and signs with a finger', async ({ browser }) => {
    test.setTimeout(120_000);
    const sent = await sendContract(browser, 'PL-10002', fillCustomerContract);
    await signOnPhone(browser, 'klara@kunde.example', 'Klara Kunde', /Rahmenvertrag/, sent);
  });

  test('a project partner reads the contract as text and signs with a finger', async ({ browser }) => {
    test.setTimeout(120_000);
    const sent = await sendContract(browser, 'PL-10005', (page) =>
      fillDocusign(page, {
        language: 'Deutsch',
        company: 'WM Consulting GmbH',
        contract: 'Rahmenvertrag',
        partner: 'Projektpartner',
        sender: 'Lena Legal',
      }),
    );
    await signOnPhone(browser, 'jana.kowalski@example.org', 'Jana Kowalski', /Rahmenvertrag/, sent);
  });
});
