import { readFileSync } from 'node:fs';
import type { Download, Locator, Page } from '@playwright/test';
import { readSheet } from 'read-excel-file/node';
import { expectAccessible } from './axe.js';
import { recordSignedElsewhere } from './contracts-support.js';
import { demoMatch } from './forms-support.js';
import { DEMO_ACCOUNTS, expect, sharedPage, test } from './support.js';

/**
 * Verträge, end to end: legal records two documents of one customer as signed elsewhere from the editor
 * — a Rahmenvertrag and an Einzelauftrag of WE with Lahntal Software AG, which no other spec uses — and
 * finds them on /vertraege, filtered, sorted, exported and as a chain.
 *
 * The expected values come from config/demo-matches.json, worked out by hand:
 * PL-10014 ends Friday 17.12.2027 with „4 Wochen“: notice must arrive by Friday 19.11.2027 (§ 188(2) BGB).
 * PL-10028 ends Thursday 30.09.2027 with "2 weeks": by Thursday 16.09.2027.
 */

const framework = demoMatch('PL-10014');
const order = demoMatch('PL-10028');
const CUSTOMER = 'Lahntal Software AG';
/** The cells of the table's rows whose match is one of ours, in the table's order. */
async function ourRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('table', { name: 'Verträge' }).getByRole('row');
  const cells = await rows.evaluateAll((elements) =>
    elements.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent ?? '')),
  );
  return cells.filter((row) => row[0] === framework.matchId || row[0] === order.matchId);
}

/** Presses Tab until `target` has the focus, checking at every stop that the browser shows the focus. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      return { visible: element.matches(':focus-visible'), name: element.outerHTML.slice(0, 80) };
    });
    if (!stop) continue;
    expect(stop.visible, `focus visible on ${stop.name}`).toBe(true);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`not reached with ${limit} presses of Tab: ${target}`);
}

async function downloaded(page: Page, button: string): Promise<Download> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  return download;
}

test.describe('Verträge', () => {
  test.describe.configure({ mode: 'serial' });
  const legal = sharedPage(DEMO_ACCOUNTS.legal);

  test('legal records a Rahmenvertrag signed elsewhere from the editor; its page shows the deadline and the source', async () => {
    test.setTimeout(90_000);
    const record = await recordSignedElsewhere(
      legal(),
      framework.matchId,
      'Rahmenvertrag',
      '2026-11-20',
      'Ute Vogelsang',
    );
    await expect(record.getByRole('heading', { level: 1 })).toHaveText(`Rahmenvertrag ${framework.matchId}`);
    const notice = record.getByRole('region', { name: 'Kündigung', exact: true });
    await expect(notice).toContainText('Kündigungsfrist laut Vertrag4 Wochen');
    await expect(notice).toContainText('Regel4 Wochen');
    await expect(notice).toContainText('Kündigung spätestens am19.11.2027');
    await expect(record.getByRole('region', { name: 'Laufzeit', exact: true })).toContainText(
      'Ende17.12.2027',
    );
    const source = record.getByRole('region', { name: 'Herkunft', exact: true });
    await expect(source).toContainText(
      'Anderweitig unterschrieben von Ute Vogelsang · Unterschrieben am 20.11.2026',
    );
    await expect(source.getByRole('link', { name: 'Dokument öffnen' })).toHaveAttribute(
      'href',
      /^\/dokumente\/[0-9a-f-]{36}$/,
    );
    await expect(record.getByRole('table', { name: 'Verlauf des Vertrags' })).toContainText(
      `Als anderweitig unterschrieben erfasst${DEMO_ACCOUNTS.legal}Ute Vogelsang`,
    );
    await record.close();
  });

  test('an Einzelauftrag of the same customer hangs under the Rahmenvertrag: the chain, checked with axe', async () => {
    test.setTimeout(90_000);
    const record = await recordSignedElsewhere(
      legal(),
      order.matchId,
      'Einzelauftrag',
      '2026-11-25',
      'Ute Vogelsang',
    );
    await expect(record.getByRole('heading', { level: 1 })).toHaveText(`Einzelauftrag ${order.matchId}`);
    await expect(record.getByRole('region', { name: 'Kündigung', exact: true })).toContainText(
      'Kündigung spätestens am16.09.2027',
    );
    const chain = record.getByRole('region', { name: 'Vertragskette', exact: true });
    const top = chain
      .getByRole('listitem')
      .filter({ has: record.getByRole('link', { name: `Rahmenvertrag ${framework.matchId}` }) });
    await expect(top).toHaveCount(1);
    const current = top.getByRole('listitem');
    await expect(current).toContainText(`unter dem Rahmenvertrag:Einzelauftrag ${order.matchId}`);
    await expect(current.getByRole('link', { name: `Einzelauftrag ${order.matchId}` })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expectAccessible(record, 'a contract record with its chain, as legal sees it');

    // Up the chain to the Rahmenvertrag's own page.
    await top.getByRole('link', { name: `Rahmenvertrag ${framework.matchId}` }).click();
    await expect(record.getByRole('heading', { level: 1 })).toHaveText(`Rahmenvertrag ${framework.matchId}`);
    await expect(
      record
        .getByRole('region', { name: 'Vertragskette', exact: true })
        .getByRole('link', { name: `Rahmenvertrag ${framework.matchId}` }),
    ).toHaveAttribute('aria-current', 'page');
    await record.close();
  });

  test('/vertraege filters, searches and sorts, all kept in the address', async () => {
    const page = legal();
    await page.goto('/start');
    await page.getByRole('link', { name: 'Verträge' }).click();
    await expect(page).toHaveURL(/\/vertraege$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Verträge' })).toBeVisible();

    await page.getByRole('combobox', { name: 'Art' }).click();
    await page.getByRole('option', { name: 'Rahmenvertrag' }).click();
    await page.getByRole('textbox', { name: 'Endet in (Tagen)' }).fill('400');
    await page.getByRole('searchbox', { name: 'Suche' }).fill('Lahntal');
    await expect(page).toHaveURL(/\/vertraege\?q=Lahntal&kind=rahmenvertrag&endsWithin=400$/);
    await expect
      .poll(() => ourRows(page))
      .toEqual([
        [
          framework.matchId,
          'Rahmenvertrag',
          CUSTOMER,
          CUSTOMER,
          'Hannes Hoffmann',
          '04.01.2027',
          '17.12.2027',
          '19.11.2027',
          '20.11.2026',
          'In Kraft',
        ],
      ]);

    // Every kind: both records, by end ascending; a click sorts by end descending.
    await page.getByRole('combobox', { name: 'Art' }).click();
    await page.getByRole('option', { name: 'Alle' }).click();
    await expect(page).toHaveURL(/\/vertraege\?q=Lahntal&endsWithin=400$/);
    await expect
      .poll(async () => (await ourRows(page)).map((row) => row[0]))
      .toEqual([order.matchId, framework.matchId]);
    expect((await ourRows(page))[0]).toEqual([
      order.matchId,
      'Einzelauftrag',
      CUSTOMER,
      CUSTOMER,
      'Florian Fuchs',
      '01.04.2027',
      '30.09.2027',
      '16.09.2027',
      '25.11.2026',
      'In Kraft',
    ]);
    await page.getByRole('button', { name: 'Ende' }).click();
    await expect(page.getByRole('columnheader', { name: /^Ende/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(page).toHaveURL(/\/vertraege\?q=Lahntal&endsWithin=400&direction=desc$/);
    await expect
      .poll(async () => (await ourRows(page)).map((row) => row[0]))
      .toEqual([framework.matchId, order.matchId]);
    await page.getByRole('button', { name: 'Unterschrieben' }).click();
    await expect(page.getByRole('columnheader', { name: /^Unterschrieben/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect
      .poll(async () => (await ourRows(page)).map((row) => row[0]))
      .toEqual([framework.matchId, order.matchId]);

    // Back returns to the view before; a reload keeps the view.
    await page.goBack();
    await expect(page).toHaveURL(/\/vertraege\?q=Lahntal&endsWithin=400&direction=desc$/);
    await expect(page.getByRole('columnheader', { name: /^Ende/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Suche' })).toHaveValue('Lahntal');
    await expect(page.getByRole('textbox', { name: 'Endet in (Tagen)' })).toHaveValue('400');
    await expect
      .poll(async () => (await ourRows(page)).map((row) => row[0]))
      .toEqual([framework.matchId, order.matchId]);

    // The Einzelauftrag is under its Rahmenvertrag: none of ours runs without one.
    // The box shows the address: it is ticked once the view has changed.
    const withoutFramework = page.getByRole('checkbox', { name: 'Nur Einzelaufträge ohne Rahmenvertrag' });
    await withoutFramework.click();
    await expect(withoutFramework).toBeChecked();
    await expect(page).toHaveURL(/withoutFramework=true/);
    await expect.poll(() => ourRows(page)).toEqual([]);
  });

  test('the export of the view: CSV with its byte order mark and semicolons, and XLSX', async () => {
    const page = legal();
    await page.goto('/vertraege?q=Lahntal&company=we&sort=end');
    await expect(page.getByRole('table', { name: 'Verträge' })).toBeVisible();

    const csv = await downloaded(page, 'CSV');
    expect(csv.suggestedFilename()).toBe('Vertraege.csv');
    const text = readFileSync(await csv.path(), 'utf8');
    expect(text.startsWith('\uFEFFMatch;Art;Status;Gesellschaft;')).toBe(true);
    const lines = text.slice(1).trim().split(/\r?\n/);
    const ours = lines.filter((line) => line.startsWith(framework.matchId) || line.startsWith(order.matchId));
    expect(ours).toEqual([
      `${order.matchId};Einzelauftrag;In Kraft;WE;Kunde;${CUSTOMER};${CUSTOMER};Florian Fuchs;01.04.2027;30.09.2027;2 weeks;2 Wochen;16.09.2027;25.11.2026`,
      `${framework.matchId};Rahmenvertrag;In Kraft;WE;Kunde;${CUSTOMER};${CUSTOMER};Hannes Hoffmann;04.01.2027;17.12.2027;4 Wochen;4 Wochen;19.11.2027;20.11.2026`,
    ]);

    const xlsx = await downloaded(page, 'Excel');
    expect(xlsx.suggestedFilename()).toBe('Vertraege.xlsx');
    const [header, ...rows] = (await readSheet(readFileSync(await xlsx.path()))) as unknown as string[][];
    const row = rows.find((cells) => cells[0] === framework.matchId);
    expect(Object.fromEntries((header ?? []).map((name, index) => [name, row?.[index]]))).toMatchObject({
      Match: framework.matchId,
      Art: 'Rahmenvertrag',
      Gesellschaft: 'WE',
      Gegenseite: CUSTOMER,
      Ende: '17.12.2027',
      'Kündigungsfrist (Text)': '4 Wochen',
      'Kündigung spätestens': '19.11.2027',
    });
  });

  test('/vertraege passes axe, and its filters and rows are reached with Tab; Enter opens a record', async () => {
    const page = legal();
    await page.goto('/vertraege?q=Lahntal');
    const link = page.getByRole('link', { name: `Einzelauftrag ${order.matchId} öffnen` });
    await expect(link).toBeVisible();
    await expectAccessible(page, '/vertraege with two records');
    await page.getByRole('heading', { level: 1, name: 'Verträge' }).click();
    for (const filter of [
      page.getByRole('searchbox', { name: 'Suche' }),
      page.getByRole('combobox', { name: 'Gesellschaft' }),
      page.getByRole('textbox', { name: 'Kunde' }),
      page.getByRole('combobox', { name: 'Status' }),
      page.getByRole('textbox', { name: 'Kündigung fällig in (Tagen)' }),
      page.getByRole('checkbox', { name: 'Nur Einzelaufträge ohne Rahmenvertrag' }),
      page.getByRole('button', { name: 'CSV' }),
      page.getByRole('button', { name: 'Match' }),
      link,
    ])
      await tabTo(page, filter);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Einzelauftrag ${order.matchId}`);
    // Back to the list as it was.
    await page.getByRole('link', { name: /Zurück zu den Verträgen/ }).click();
    await expect(page).toHaveURL(/\/vertraege\?q=Lahntal$/);
  });
});
