import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connectMessage } from '../../test/docusign-api/connect-message.js';
import { withSigners } from '../../test/docusign-fake-connect.js';
import { parseConnectEvent, verifyConnectSignature } from './connect.js';

const KEY = 'connect-hmac-key-0123456789';
const sign = (body: Buffer, key = KEY) => createHmac('sha256', key).update(body).digest('base64');

/** A JSON SIM message as DocuSign sends it, with seven decimals in the timestamp. */
const message = (event: string, envelopeId = '93be49ab-afa0-4adf-933c-f752070d71ec') =>
  connectMessage(event, {
    envelopeId,
    generatedDateTime: '2026-11-21T10:15:30.1234567Z',
    ...(event.startsWith('recipient-') ? { recipientId: '2' } : {}),
  });

describe('verifyConnectSignature', () => {
  const body = Buffer.from(JSON.stringify(message('envelope-completed')));

  it('accepts the HMAC of the raw body', () => {
    expect(verifyConnectSignature(body, { 'x-docusign-signature-1': sign(body) }, KEY)).toBe(true);
  });

  it('accepts our key in any of the signature headers, as during a key rotation', () => {
    const headers = {
      'x-docusign-signature-1': sign(body, 'the-other-active-key-000'),
      'x-docusign-signature-2': sign(body),
    };
    expect(verifyConnectSignature(body, headers, KEY)).toBe(true);
  });

  it('refuses a changed body, another key, a missing or a malformed header', () => {
    const tampered = Buffer.from(body.toString().replace('completed', 'voided'));
    expect(verifyConnectSignature(tampered, { 'x-docusign-signature-1': sign(body) }, KEY)).toBe(false);
    expect(
      verifyConnectSignature(body, { 'x-docusign-signature-1': sign(body, 'guessed-key-0000') }, KEY),
    ).toBe(false);
    expect(verifyConnectSignature(body, {}, KEY)).toBe(false);
    expect(verifyConnectSignature(body, { 'x-docusign-signature-1': 'AAAA' }, KEY)).toBe(false);
    expect(verifyConnectSignature(body, { 'x-other-signature-1': sign(body) }, KEY)).toBe(false);
  });
});

describe('parseConnectEvent', () => {
  it.each([
    ['envelope-sent', 'sent', 'sent'],
    ['envelope-delivered', 'sent', 'delivered'],
    ['envelope-completed', 'completed', 'completed'],
    ['envelope-declined', 'declined', 'declined'],
    ['envelope-voided', 'voided', 'voided'],
    ['envelope-corrected', null, 'corrected'],
    ['recipient-completed', null, 'recipient-completed'],
  ])('reads %s as status %s (DocuSign: %s)', (event, status, providerStatus) => {
    expect(parseConnectEvent(message(event))).toEqual({
      externalId: '93be49ab-afa0-4adf-933c-f752070d71ec',
      status,
      providerStatus,
      recipientId: event.startsWith('recipient-') ? '2' : null,
      at: new Date('2026-11-21T10:15:30.123Z'),
      signerRoles: null,
    });
  });

  it("reads the signers' roles of an envelope summary that lists its recipients", () => {
    const sent = withSigners(message('envelope-sent'), [
      { recipientId: '1', name: 'Paul Partner', email: 'paul@pp.example', roleName: 'Projektpartner' },
      { recipientId: '2', name: 'Anna Added', email: 'anna@pp.example' },
    ]);

    expect(parseConnectEvent(sent)?.signerRoles).toEqual(['Projektpartner', '']);
    expect(parseConnectEvent(withSigners(message('envelope-sent'), []))?.signerRoles).toEqual([]);
  });

  it('is null for what is no Connect event', () => {
    expect(parseConnectEvent(undefined)).toBeNull();
    expect(parseConnectEvent({ ...message('envelope-sent'), event: 'ping' })).toBeNull();
    expect(parseConnectEvent({ ...message('envelope-sent'), data: {} })).toBeNull();
    expect(parseConnectEvent({ ...message('envelope-sent'), generatedDateTime: 'gestern' })).toBeNull();
  });

  it('does not mistake inherited object keys for statuses', () => {
    expect(parseConnectEvent(message('envelope-constructor'))?.status).toBeNull();
  });
});
