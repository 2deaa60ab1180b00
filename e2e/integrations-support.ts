import type { Locator, Page } from '@playwright/test';
import { expect } from './support.js';

/**
 * Registers `url` for `events` on /verwaltung → Integrationen (the tab open), and returns the secret
 * shown once with the endpoint's id. `whileShown` runs while the secret is on screen; afterwards it is
 * gone and the table lists the endpoint as active.
 */
export async function registerWebhookEndpoint(
  page: Page,
  url: string,
  events: RegExp[],
  whileShown: (shown: Locator) => Promise<void> = async () => {},
): Promise<{ secret: string; endpointId: string }> {
  await page.getByRole('textbox', { name: /Adresse des Empfängers/ }).fill(url);
  for (const event of events) await page.getByRole('checkbox', { name: event }).check();
  await page.getByRole('button', { name: 'Hinzufügen' }).click();
  const shown = page.getByRole('region', { name: `Signaturgeheimnis für ${url}` });
  await expect(shown).toBeVisible();
  const secret = (await shown.getByText(/^whsec_/).textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  const endpointId = (await shown.textContent())?.match(/[0-9a-f]{8}-[0-9a-f-]{27}/)?.[0] ?? '';
  await whileShown(shown);
  await shown.getByRole('button', { name: 'Fertig, Geheimnis ist gespeichert' }).click();
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Webhook-Empfänger' })).toContainText('Aktiv');
  return { secret, endpointId };
}

/** Creates an API client named `name` acting with `level` (its label) on /verwaltung → API-Zugänge; its token. */
export async function createApiClient(page: Page, name: string, level: string): Promise<string> {
  await page.getByRole('tab', { name: 'API-Zugänge' }).click();
  await page.getByRole('textbox', { name: /^Name/ }).fill(name);
  await page.getByRole('combobox', { name: 'Stufe', exact: true }).click();
  await page.getByRole('option', { name: level }).click();
  await page.getByRole('button', { name: 'Anlegen' }).click();
  const shown = page.getByRole('region', { name: `Token für ${name}` });
  const token = (await shown.getByLabel('Token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^vg_[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'Token gesichert, ausblenden' }).click();
  await expect(page.getByText(token)).toHaveCount(0);
  return token;
}
