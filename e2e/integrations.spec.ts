import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../apps/server/src/test/webhook-receiver.js';
import { BASE_URL } from '../playwright.config.js';
import { expectAccessible } from './axe.js';
import { fillDocusign, loadMatch, openForm, submitButton } from './forms-support.js';
import { registerWebhookEndpoint } from './integrations-support.js';
import { COUNTERSIGNATORY, chooseCountersignatory, signAs } from './signature-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signIn, test } from './support.js';

const MATCH = 'PL-10008';
const PARTNER = { name: 'Jana Kowalski', email: 'jana.kowalski@example.org' };

test.describe('webhooks to another system', () => {
  let receiver: WebhookReceiver;
  test.beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  test.afterAll(async () => {
    await receiver.close();
  });

  test('an administrator registers an endpoint; an envelope signed to completion reaches it as verified events, the sealed PDF fetched with its secret', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    // Team-Operations registers the receiver on /verwaltung → Integrationen.
    const ops = await newUserPage(browser);
    await signIn(ops, DEMO_ACCOUNTS.operations);
    // Team-Operations without a document level lands on /verwaltung.
    await expect(ops).toHaveURL(/\/verwaltung$/);
    await ops.getByRole('tab', { name: 'Integrationen' }).click();
    await expect(ops.getByRole('region', { name: 'Empfänger hinzufügen' })).toBeVisible();
    await expectAccessible(ops, 'the integrations tab without endpoints');
    const { secret, endpointId } = await registerWebhookEndpoint(
      ops,
      receiver.url,
      [/Dokument erzeugt/, /Umschlag versendet/, /Unterschrift geleistet/, /Umschlag abgeschlossen/],
      async (shown) => {
        await expect(shown.getByRole('button', { name: 'Geheimnis kopieren' })).toBeFocused();
        await expectAccessible(ops, 'the secret shown once');
      },
    );
    receiver.useSecret(secret);

    // Legal sends a partner contract without countersignature; the partner signs.
    const legal = await newUserPage(browser);
    await signIn(legal, DEMO_ACCOUNTS.legal);
    await expect(legal).toHaveURL(/\/start$/);
    await loadMatch(legal, MATCH);
    await openForm(legal, '/contract/docusign', MATCH);
    await fillDocusign(legal, {
      language: 'Deutsch',
      company: 'WM Consulting GmbH',
      contract: 'Rahmenvertrag',
      partner: 'Projektpartner',
      sender: 'Lena Legal',
    });
    const [senderView] = await Promise.all([legal.waitForEvent('popup'), submitButton(legal).click()]);
    await expect(senderView).toHaveURL(/\/signatur\/[0-9a-f-]{36}$/);
    const envelopeId = senderView.url().split('/').at(-1) ?? '';
    await chooseCountersignatory(senderView, COUNTERSIGNATORY.name);
    const sent = Date.now();
    await senderView.getByRole('button', { name: 'Senden' }).click();
    await expect(senderView.getByText('Versendet').first()).toBeVisible();
    await signAs(browser, PARTNER.email, PARTNER.name, false, sent);
    // The company's signatory countersigns last, through the link in the same mail folder.
    await signAs(browser, COUNTERSIGNATORY.email, COUNTERSIGNATORY.name, false, sent);

    // The receiver verified every request with the standardwebhooks library; the envelope's events came
    // in order, the completion once the sealed PDF existed.
    const ofEnvelope = () =>
      receiver.verified.filter((v) => v.data.envelopeId === envelopeId).map((v) => v.type);
    await expect
      .poll(ofEnvelope, { timeout: 60_000 })
      .toEqual(['envelope.sent', 'envelope.signed', 'envelope.signed', 'envelope.completed']);
    expect(receiver.refused).toEqual([]);
    expect(receiver.verified.some((v) => v.type === 'document.generated' && v.data.matchId === MATCH)).toBe(
      true,
    );
    const completed = receiver.verified.find(
      (v) => v.type === 'envelope.completed' && v.data.envelopeId === envelopeId,
    );
    const sealedPdf = completed?.data.sealedPdf as { sha256: string; url: string };
    expect(sealedPdf.url).toBe(`${BASE_URL}/backend/webhooks/envelopes/${envelopeId}/sealed-pdf`);

    // The receiver fetches the sealed PDF with its endpoint's secret, signed by the same library.
    const at = new Date();
    const pdf = await fetch(sealedPdf.url, {
      headers: {
        'webhook-endpoint': endpointId,
        'webhook-id': envelopeId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(envelopeId, at, ''),
      },
    });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sealedPdf.sha256);
    const unsigned = await fetch(sealedPdf.url);
    expect(unsigned.status).toBe(401);

    // Team-Operations sees the deliveries and their attempts.
    await ops.reload();
    await ops.getByRole('tab', { name: 'Integrationen' }).click();
    await ops.getByRole('button', { name: `Zustellungen an ${receiver.url}` }).click();
    const deliveries = ops.getByRole('table', { name: `Zustellungen an ${receiver.url}` });
    await expect(deliveries).toContainText('envelope.completed');
    await expect(deliveries.getByText('Zugestellt').first()).toBeVisible();
    await expectAccessible(ops, 'the deliveries of an endpoint');
  });
});
