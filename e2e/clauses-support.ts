import type { Locator, Page } from '@playwright/test';
import type { ClauseContent, NewClause } from '@vertragsgenerator/domain';
import { expect } from './support.js';

/** A variant as the editor takes it; `rule` left out: it applies always. */
export interface VariantInput {
  name: string;
  rule?: string;
  de: string;
  en: string;
}

/** The editor's fieldset of variant `number` (1-based); its legend also names the variant once it has a name. */
export function variantGroup(scope: Page | Locator, number: number): Locator {
  return scope.getByRole('group', { name: new RegExp(`^Variante ${number}(:|$)`) });
}

/** Fills variant `number` of an open editor (new clause or new version) in place of what it holds. */
export async function fillVariant(scope: Page | Locator, number: number, variant: VariantInput) {
  const group = variantGroup(scope, number);
  await group.getByRole('textbox', { name: 'Name der Variante' }).fill(variant.name);
  await group.getByRole('textbox', { name: 'Regel' }).fill(variant.rule ?? '');
  await group.getByRole('textbox', { name: 'Deutscher Text' }).fill(variant.de);
  await group.getByRole('textbox', { name: 'Englischer Text' }).fill(variant.en);
}

/** The row of version `number` in the clause's table of versions. */
export function versionRow(page: Page, number: number): Locator {
  return page
    .getByRole('table', { name: 'Versionen' })
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Version ${number} ansehen` }) });
}

/** The section reviewing version `number`: its check, content, changes, trial and publishing. */
export function versionReview(page: Page, number: number): Locator {
  return page.getByRole('region', { name: `Version ${number}`, exact: true });
}

/** Opens version `number` from the table of versions and waits until the page reviews it. */
export async function reviewVersion(page: Page, number: number): Promise<Locator> {
  await page.getByRole('button', { name: `Version ${number} ansehen` }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]version=${number}$`));
  const review = versionReview(page, number);
  await expect(review).toBeVisible();
  return review;
}

/**
 * Publishes the version under review through its dialog (`button`: „Veröffentlichen“, or „Version n
 * wieder veröffentlichen“ for a rollback) and waits for the page to say it is published.
 */
export async function publishReviewed(page: Page, number: number, button: string, comment: string) {
  const section = versionReview(page, number).getByRole('region', { name: 'Veröffentlichen' });
  await section.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Kommentar für das Protokoll' }).fill(comment);
  await dialog.getByRole('button', { name: 'Veröffentlichen', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByText(`Version ${number} ist veröffentlicht.`)).toBeVisible();
  await expect(section.getByText('Das ist die veröffentlichte Version.')).toBeVisible();
}

/** The status badge of a version's row, e.g. „Entwurf“, „veröffentlicht“, „ersetzt“. */
export function statusOf(page: Page, number: number, status: string): Locator {
  return versionRow(page, number).getByText(status, { exact: true });
}

/**
 * Presses Tab until `target` has the focus; fails when it is not reached within `limit` presses, as it
 * could then not be reached by keyboard.
 */
export async function tabTo(page: Page, target: Locator, limit = 30): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`not reached with ${limit} presses of Tab: ${target}`);
}

/** The signed-in user's ID token, as the SPA sends it: for calls the test makes beside the pages. */
async function idToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:'));
    return key
      ? (JSON.parse(localStorage.getItem(key) ?? '{}') as { id_token?: string }).id_token
      : undefined;
  });
  if (!token) throw new Error('not signed in');
  return token;
}

/**
 * The clause library's API in the signed-in user's name: what a test needs made before the page it
 * looks at, and refusals the pages never let the user ask for.
 */
export async function clauseApi(page: Page) {
  const headers = { authorization: `Bearer ${await idToken(page)}` };
  const path = (key: string) => `/backend/clauses/${encodeURIComponent(key)}`;
  return {
    async create(clause: NewClause) {
      const answer = await page.request.post('/backend/clauses', { headers, data: clause });
      expect(answer.status(), await answer.text()).toBe(201);
    },
    async addVersion(key: string, content: ClauseContent, comment: string) {
      const answer = await page.request.post(`${path(key)}/versions`, {
        headers,
        data: { content, comment },
      });
      expect(answer.status(), await answer.text()).toBe(201);
    },
    /** The server's answer to publishing: 200, or its refusal with the German message. */
    async publish(key: string, version: number, comment: string, replaces: number | null) {
      const answer = await page.request.post(`${path(key)}/versions/${version}/publish`, {
        headers,
        data: { comment, replaces },
      });
      return { status: answer.status(), body: await answer.text() };
    },
  };
}

/** A version's content with its variants in order, as the API takes it. */
export function contentOf(variants: VariantInput[]): ClauseContent {
  return {
    option: 'always',
    variants: variants.map(({ name, rule, de, en }) => ({ name, rule: rule ?? null, de, en })),
  };
}
