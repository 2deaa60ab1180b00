import { generateKeyPairSync } from 'node:crypto';
import {
  CATALOGUE,
  type CatalogueEntry,
  SIGNATURE_ANCHORS,
  type TemplateData,
} from '@vertragsgenerator/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DocusignFake, startDocusignFake } from '../../test/docusign-fake.js';
import { docxFixture, paragraph } from '../../test/docx-fixture.js';
import { createDocusignProvider } from './docusign-provider.js';

const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const IDS = {
  integrationKey: '3c1e8a52-0000-4000-8000-integration',
  userId: '7f2b9c10-0000-4000-8000-impersonated',
  accountId: 'b41d7e66-0000-4000-8000-account',
};
const entry = CATALOGUE.values().next().value as CatalogueEntry;

describe('DocuSign provider: the roles of an uploaded document’s signers', () => {
  let fake: DocusignFake;
  beforeEach(async () => {
    fake = await startDocusignFake({ ...IDS, publicKey: keys.publicKey });
  });
  afterEach(() => fake.close());

  it('names each signer’s role, so that Connect’s report of the sending shows the company’s countersigner', async () => {
    const provider = createDocusignProvider({
      kind: 'docusign',
      linkValidDays: 14,
      reminderEveryDays: 3,
      ...IDS,
      privateKey: keys.privateKey,
      authUrl: fake.authUrl,
      basePath: undefined,
      connectHmacKey: undefined,
      templates: {},
    });
    const content = docxFixture({
      body: Object.values(SIGNATURE_ANCHORS).flatMap((anchors) => [
        paragraph(anchors.ankerDatum),
        paragraph(anchors.ankerSignatur),
        paragraph(anchors.ankerName),
      ]),
    });

    await provider.createEnvelope({
      id: '0b0f5a3e-1111-4111-8111-000000000002',
      entry,
      matchId: 'PL-10001',
      document: { fileName: 'Rahmenvertrag PL-10001.docx', content, sha256: 'not checked' },
      data: { matchId: 'PL-10001' } as unknown as TemplateData,
      sender: { name: 'Berta Beraterin', email: 'berta@firma.example' },
      recipients: [
        { role: 'Projektpartner', name: 'Paul Partner', email: 'paul@pp.example', routingOrder: 1 },
        { role: 'Firma', name: 'Sabine Kroll', email: 'sabine@we.example', routingOrder: 2 },
        { role: 'CC', name: 'Claudia Copy', email: 'claudia@firma.example', routingOrder: 2 },
      ],
      subject: 'Rahmenvertrag zur Unterschrift',
      message: '',
    });

    // The request as DocuSign received it; the fake held it to DocuSign's published description.
    const requests = fake.requests.filter((r) => r.endpoint === 'createEnvelope');
    expect(requests).toHaveLength(1);
    const body = requests[0]?.body as { recipients: { signers: { name: string; roleName?: string }[] } };
    const signers = body.recipients.signers;
    expect(signers.map((s) => [s.name, s.roleName])).toEqual([
      ['Paul Partner', 'Projektpartner'],
      ['Sabine Kroll', 'Firma'],
    ]);
    expect(fake.violations).toEqual([]);
  });
});
