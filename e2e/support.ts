import { type Browser, test as base, expect, type Page } from '@playwright/test';

/**
 * The specs' `test`: after each test, the browser contexts it opened (`newUserPage`, one per user) are
 * closed, also when it failed halfway. A context left open keeps its pages running beside every later test
 * of the worker — an editor, a polling overview — and takes CPU from them. Contexts a `beforeAll` opened
 * for a serial group were there before the test and stay for the next one.
 */
export const test = base.extend<{ closesItsContexts: undefined }>({
  closesItsContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close()));
    },
    { auto: true },
  ],
});

export { expect };

export const DEMO_PASSWORD = 'demo';

export const DEMO_ACCOUNTS = {
  consultant: 'berater@demo.local',
  legal: 'legal@demo.local',
  leader: 'leitung@demo.local',
  none: 'neu@demo.local',
  /** Team-Operations: an administrator without a document level. */
  operations: 'ops@demo.local',
} as const;

/** Opens the sign-in popup from /login and returns it once the provider's form is there. */
export async function openSignInPopup(page: Page): Promise<Page> {
  await page.goto('/login');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Mit Demo-SSO anmelden' }).click(),
  ]);
  await expect(popup.getByLabel('E-Mail')).toBeVisible();
  return popup;
}

export async function submitCredentials(popup: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await popup.getByLabel('E-Mail').fill(email);
  await popup.getByLabel('Passwort').fill(password);
  await popup.getByRole('button', { name: 'Anmelden' }).click();
}

/** Signs in through the real popup flow of the embedded provider. */
export async function signIn(page: Page, email: string): Promise<void> {
  const popup = await openSignInPopup(page);
  // Listen before submitting: the popup may close before a later listener would be attached.
  const closed = popup.waitForEvent('close');
  await submitCredentials(popup, email);
  await closed;
}

/** Signs in and waits for /start: a navigation before that would interrupt the sign-in. */
export async function signedIn(page: Page, email: string): Promise<void> {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/start$/);
}

/** A fresh browser context per user, as different people on different machines. */
export async function newUserPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/**
 * One sign-in per role: the tests of a describe run in order on one shared page. `landing` is where the
 * role arrives after signing in (Team-Operations on /verwaltung).
 */
export function sharedPage(email: string, landing = /\/start$/): () => Page {
  let page: Page | undefined;
  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext()).newPage();
    await signIn(page, email);
    await expect(page).toHaveURL(landing);
  });
  test.afterAll(async () => {
    await page?.context().close();
  });
  return () => {
    if (!page) throw new Error('not signed in');
    return page;
  };
}
