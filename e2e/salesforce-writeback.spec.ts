import { createHash, randomBytes } from 'node:crypto';
import { pdfsig } from '../apps/server/src/test/pdf-tools.js';
import { startWebhookReceiver, type WebhookReceiver } from '../apps/server/src/test/webhook-receiver.js';
import {
  SALESFORCE_APP_BASE_URL,
  SALESFORCE_DATA_DIR,
  SALESFORCE_STUB_STATE_URL,
} from '../playwright.config.js';
import { fillDocusign, loadMatch, openForm, submitButton } from './forms-support.js';
import { createApiClient, registerWebhookEndpoint } from './integrations-support.js';
import { SALESFORCE_MATCH_ID, SALESFORCE_RECORD, SALESFORCE_RECORD_ID } from './salesforce-match.js';
import type { SalesforceStubState } from './salesforce-stub-server.js';
import { COUNTERSIGNATORY, chooseCountersignatory, completionMailPdf, signAs } from './signature-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signIn, test } from './support.js';

// The third app server of playwright.config.ts: matches from Salesforce (the stub started before it),
// written back with e2e/salesforce-mapping.json's `writeback`, and webhooks to a receiver on loopback.
test.use({ baseURL: SALESFORCE_APP_BASE_URL });

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

const PARTNER = { name: 'Jana Kowalski', email: 'jana.kowalski@example.org' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function stubState(): Promise<SalesforceStubState> {
  const answer = await fetch(SALESFORCE_STUB_STATE_URL);
  expect(answer.status).toBe(200);
  return (await answer.json()) as SalesforceStubState;
}

/** The values of `field` in the PATCHes of the match's record, in the order they arrived. */
async function patched(field: string): Promise<unknown[]> {
  return (await stubState()).patches
    .filter((patch) => patch.object === 'Match__c' && patch.id === SALESFORCE_RECORD_ID)
    .map((patch) => patch.body[field]);
}

test('an administrator connects a webhook receiver and an API client; a contract of a Salesforce match signed to completion reaches the receiver as verified events and becomes a File of its record', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  // Team-Operations registers the receiver and an API client with the level of legal staff.
  const ops = await newUserPage(browser);
  await signIn(ops, DEMO_ACCOUNTS.operations);
  await expect(ops).toHaveURL(/\/verwaltung$/);
  await ops.getByRole('tab', { name: 'Integrationen' }).click();
  const { secret } = await registerWebhookEndpoint(ops, receiver.url, [
    /Umschlag versendet/,
    /Unterschrift geleistet/,
    /Umschlag abgeschlossen/,
  ]);
  receiver.useSecret(secret);
  const token = await createApiClient(ops, `Archiv ${randomBytes(3).toString('hex')}`, 'Legal (2)');

  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);

  // The match comes live from Salesforce: the lookup's SOQL names it, the table shows the record's customer.
  await loadMatch(page, SALESFORCE_MATCH_ID);
  const table = page.getByRole('table', { name: `Match ${SALESFORCE_MATCH_ID}` });
  await expect(table).toContainText(SALESFORCE_RECORD.Kunde__r.Name);
  await expect(table).toContainText(SALESFORCE_RECORD.Position__c);
  expect(
    (await stubState()).queries.some((soql) => soql.includes(`WHERE Name = '${SALESFORCE_MATCH_ID}'`)),
  ).toBe(true);

  // Legal sends the e-signature contract to the project partner, without countersignature.
  await openForm(page, '/contract/docusign', SALESFORCE_MATCH_ID);
  await fillDocusign(page, {
    language: 'Deutsch',
    company: 'WM Consulting GmbH',
    contract: 'Rahmenvertrag',
    partner: 'Projektpartner',
    sender: 'Lena Legal',
  });
  const [senderView] = await Promise.all([page.waitForEvent('popup'), submitButton(page).click()]);
  await expect(senderView).toHaveURL(/\/signatur\/[0-9a-f-]{36}$/);
  const envelopeId = senderView.url().split('/').at(-1) ?? '';
  await chooseCountersignatory(senderView, COUNTERSIGNATORY.name);
  const sent = Date.now();
  await senderView.getByRole('button', { name: 'Senden' }).click();
  await expect(senderView.getByText('Versendet').first()).toBeVisible();

  // Salesforce hears of the sending before anyone signs.
  await expect.poll(() => patched('Vertragsstatus__c'), { timeout: 30_000 }).toEqual(['Versendet']);

  // The partner signs through the link in this server's mail folder; the envelope completes and is sealed.
  await signAs(browser, PARTNER.email, PARTNER.name, false, sent, SALESFORCE_DATA_DIR);
  // The company's signatory countersigns last, through the link in the same mail folder.
  await signAs(browser, COUNTERSIGNATORY.email, COUNTERSIGNATORY.name, false, sent, SALESFORCE_DATA_DIR);
  const mailed = await completionMailPdf(PARTNER.email, sent, SALESFORCE_DATA_DIR);

  // The sealed PDF, byte for byte as the signer got it, is one File of the match's record.
  await expect.poll(async () => (await stubState()).files.length, { timeout: 60_000 }).toBe(1);
  const [file] = (await stubState()).files;
  expect(file?.firstPublishLocationId).toBe(SALESFORCE_RECORD_ID);
  // Named as the PDF the signer got: after the contract, `… - unterschrieben.pdf`.
  expect(file?.pathOnClient.startsWith(`${SALESFORCE_MATCH_ID} `)).toBe(true);
  expect(file?.pathOnClient).toBe(mailed.filename);
  expect(file?.sha256).toBe(sha256(mailed.content));
  const uploaded = Buffer.from(file?.base64 ?? '', 'base64');
  expect(sha256(uploaded)).toBe(file?.sha256);
  expect(await pdfsig(uploaded)).toMatch(/Signature Validation: Signature is Valid\./);
  // Shown on the record: the link Salesforce made for FirstPublishLocationId, checked by the write-back.
  const { links, queries } = await stubState();
  expect(links).toEqual([
    expect.objectContaining({
      contentDocumentId: file?.contentDocumentId,
      linkedEntityId: SALESFORCE_RECORD_ID,
    }),
  ]);
  expect(queries.some((soql) => soql.includes('FROM ContentDocumentLink'))).toBe(true);

  // The receiver verified each of the envelope's events with the standardwebhooks library, in order;
  // the completion names the sealed PDF's SHA-256, the same as the file in Salesforce.
  const ofEnvelope = () =>
    receiver.verified.filter((v) => v.data.envelopeId === envelopeId).map((v) => v.type);
  await expect
    .poll(ofEnvelope, { timeout: 30_000 })
    .toEqual(['envelope.sent', 'envelope.signed', 'envelope.signed', 'envelope.completed']);
  expect(receiver.refused).toEqual([]);
  const completed = receiver.verified.find((v) => v.type === 'envelope.completed');
  expect(completed?.data.sealedPdf).toMatchObject({ sha256: file?.sha256 });

  // The API client fetches the sealed PDF with its token, as an archive would on that event.
  const fetched = await request.get(`/backend/signature/envelopes/${envelopeId}/signed-pdf`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(fetched.status(), await fetched.text()).toBe(200);
  expect(sha256(await fetched.body())).toBe(file?.sha256);

  // The status fields followed the envelope; the completion also wrote the day of signing.
  await expect
    .poll(() => patched('Vertragsstatus__c'), { timeout: 30_000 })
    .toEqual(['Versendet', 'Teilweise unterschrieben', 'Unterschrieben']);
  const changedAt = (await patched('Vertragsstatus_geaendert_am__c')) as string[];
  const times = changedAt.map((at) => Date.parse(at));
  expect(times.every((time) => time >= sent - 60_000 && time <= Date.now())).toBe(true);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  const completedAt = changedAt.at(-1) as string;
  // A date field gets the day of the completion (the moment's day in UTC), only with the completion.
  expect(await patched('Vertrag_unterschrieben_am__c')).toEqual([
    undefined,
    undefined,
    new Date(completedAt).toISOString().slice(0, 10),
  ]);

  // The envelope's history says where the PDF went.
  await senderView.reload();
  await expect(senderView.getByText('Im CRM abgelegt').first()).toBeVisible();
});
