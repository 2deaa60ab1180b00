import type { Browser, Locator, Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signedIn, test } from './support.js';

/**
 * /auswertung: a leader sees each figure as a named chart with its numbers as a table beside it, or
 * the sentence that there is nothing yet — which of the two depends on what the other specs on this
 * server signed before, so each section is checked for exactly one of them. The company filter works
 * with the keyboard; a consultant gets neither the link nor the figures.
 */

const SECTIONS = [
  {
    heading: 'Vertragsenden pro Monat',
    caption: 'Vertragsenden pro Monat nach Vertragsart',
    empty: /^In den nächsten \d+ Monaten endet kein Vertrag\.$/,
  },
  {
    heading: 'Durchlaufzeit bis zur Unterschrift',
    caption: 'Durchlaufzeit in Tagen pro Monat des Abschlusses',
    empty: /^In den letzten \d+ Monaten wurde kein Umschlag abgeschlossen\.$/,
  },
  {
    heading: 'Dauer der Freigaben',
    caption: 'Dauer der Freigaben in Stunden pro Monat',
    empty: /^In den letzten \d+ Monaten wurde keine Freigabe entschieden\.$/,
  },
  {
    heading: 'Wo offene Umschläge warten',
    caption: 'Offene Umschläge nach wartendem Schritt',
    empty: /^Kein versendeter Umschlag wartet auf eine Unterschrift\.$/,
  },
  {
    heading: 'Ablehnungen und ihre Gründe',
    caption: 'Ablehnungen nach Grund',
    empty: /^In den letzten \d+ Monaten wurde kein Umschlag abgelehnt\.$/,
  },
] as const;

/** Each figure: a chart named as a picture with its table (caption, headers), or its empty sentence. */
async function expectFigures(page: Page): Promise<void> {
  for (const section of SECTIONS) {
    const region = page.getByRole('region', { name: section.heading, exact: true });
    await expect(region).toBeVisible();
    const table = region.getByRole('table', { name: section.caption });
    const empty = region.getByText(section.empty);
    await expect(table.or(empty)).toBeVisible();
    if (await table.isVisible()) {
      await expect(empty).toHaveCount(0);
      await expect(region.getByRole('img', { name: /^(Balken|Linien)diagramm: / })).toBeVisible();
      await expect(table.getByRole('columnheader').first()).toBeVisible();
      expect(await table.getByRole('row').count()).toBeGreaterThan(1);
      // The chart is drawn, and Tab never stops in it: the table beside it is what a keyboard reads.
      // (recharts marks its layers' groups tabindex -1 on purpose: out of the tab order.)
      await expect(region.locator('.recharts-surface').first()).toBeVisible();
      await expect(region.locator('[role="img"] [tabindex]:not([tabindex="-1"])')).toHaveCount(0);
    } else {
      await expect(region.getByRole('img')).toHaveCount(0);
    }
  }
}

/** Presses Tab until `target` has the focus; fails when the keyboard cannot reach it. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`not reached with ${limit} presses of Tab: ${target}`);
}

const figuresAnswer = (page: Page, query: string) =>
  page.waitForResponse(
    (response) =>
      response.url().endsWith(`/backend/contract-figures?${query}`) && response.request().method() === 'GET',
  );

/** A leader on /auswertung, reached through the header's link, with the first answer read. */
async function leaderOnFigures(browser: Browser): Promise<Page> {
  const leader = await newUserPage(browser);
  await signedIn(leader, DEMO_ACCOUNTS.leader);
  const loaded = figuresAnswer(leader, 'months=12');
  await leader.getByRole('link', { name: 'Auswertung' }).click();
  await expect(leader).toHaveURL(/\/auswertung$/);
  expect((await loaded).status()).toBe(200);
  await expect(leader.getByRole('heading', { level: 1, name: 'Auswertung' })).toBeVisible();
  return leader;
}

test('a leader reads the figures as charts, each with its numbers as a table', async ({ browser }) => {
  const leader = await leaderOnFigures(browser);
  await expect(leader.getByText(/^Stand: \d{2}\.\d{2}\.\d{4}$/)).toBeVisible();
  await expectFigures(leader);
  await expectAccessible(leader, '/auswertung, all companies');
});

test('a leader filters the figures by company and period with the keyboard, kept in the address', async ({
  browser,
}) => {
  const leader = await leaderOnFigures(browser);
  const companies = leader.getByRole('radiogroup', { name: 'Gesellschaft' });
  const all = companies.getByRole('radio', { name: 'Alle' });
  await expect(all).toBeChecked();
  await tabTo(leader, all);
  const wm = figuresAnswer(leader, 'months=12&company=wm');
  await leader.keyboard.press('ArrowRight');
  await expect(companies.getByRole('radio', { name: 'WM' })).toBeChecked();
  await expect(companies.getByRole('radio', { name: 'WM' })).toBeFocused();
  expect((await wm).status()).toBe(200);
  await expect(leader).toHaveURL(/\/auswertung\?company=wm$/);
  await expectFigures(leader);

  // The period, too, from the keyboard: the next radio group is one Tab away.
  const periods = leader.getByRole('radiogroup', { name: 'Zeitraum' });
  await leader.keyboard.press('Tab');
  await expect(periods.getByRole('radio', { name: '12 Monate' })).toBeFocused();
  const longer = figuresAnswer(leader, 'months=24&company=wm');
  await leader.keyboard.press('ArrowRight');
  expect((await longer).status()).toBe(200);
  await expect(leader).toHaveURL(/\/auswertung\?company=wm&months=24$/);
  await expect(
    leader
      .getByRole('table', { name: 'Vertragsenden pro Monat nach Vertragsart' })
      .or(leader.getByText('In den nächsten 24 Monaten endet kein Vertrag.')),
  ).toBeVisible();
  await expectAccessible(leader, '/auswertung, WM over 24 months');

  // A reload shows the same, from the address.
  await leader.reload();
  await expect(companies.getByRole('radio', { name: 'WM' })).toBeChecked();
  await expect(periods.getByRole('radio', { name: '24 Monate' })).toBeChecked();
});

test('a consultant gets no link to the figures, and the page says there is no access', async ({
  browser,
}) => {
  const consultant = await newUserPage(browser);
  await signedIn(consultant, DEMO_ACCOUNTS.consultant);
  await expect(consultant.getByRole('link', { name: 'Signaturen' })).toBeVisible();
  await expect(consultant.getByRole('link', { name: 'Auswertung' })).toHaveCount(0);
  let asked = false;
  consultant.on('request', (request) => {
    if (request.url().includes('/backend/contract-figures')) asked = true;
  });
  await consultant.goto('/auswertung');
  await expect(
    consultant.getByText('Die Auswertung sehen nur die Leitung und die Rechtsabteilung.'),
  ).toBeVisible();
  await expect(consultant.getByRole('table')).toHaveCount(0);
  expect(asked).toBe(false);
  await expectAccessible(consultant, '/auswertung for a consultant');
});
