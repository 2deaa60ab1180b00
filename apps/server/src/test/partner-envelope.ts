import type { EnvelopeView, SigningView } from '@vertragsgenerator/domain';
import { expect } from 'vitest';
import { maskedAddress } from '../signature/verification/signer-code.js';
import { bearer, type TestApp } from './test-app.js';

/**
 * A project partner contract that Berta Berater (signed in with `token`) creates for `matchId` and
 * sends as drafted: the partner holds a link. The recorded mail is emptied before the send and after
 * the invitation is read, so that what follows is all the test sees.
 */
export async function sentPartnerEnvelope(
  t: TestApp,
  { token, matchId, partner }: { token: string; matchId: string; partner: { name: string; email: string } },
): Promise<{ id: string; recipientId: string; link: string }> {
  const created = await t.app.inject({
    method: 'POST',
    url: `/backend/generateDocusign/de-we-pp-ev/${matchId}`,
    headers: bearer(token),
    payload: {
      dataList: {
        Absender_UserName: 'Berta Berater',
        Absender_Email: 'berater@demo.local',
        Projektpartner_UserName: partner.name,
        Projektpartner_Email: partner.email,
        vertragspartner_type: 'pp',
      },
    },
  });
  expect(created.statusCode, created.body).toBe(200);
  const id = (created.json().data as string).split('/').pop() as string;
  const view = async (): Promise<EnvelopeView> =>
    (
      await t.app.inject({ method: 'GET', url: `/backend/signature/envelopes/${id}`, headers: bearer(token) })
    ).json();
  const draft = await view();
  t.mailer.sent.length = 0;
  const sent = await t.app.inject({
    method: 'POST',
    url: `/backend/signature/envelopes/${id}/send`,
    headers: bearer(token),
    payload: {
      subject: draft.subject,
      message: '',
      recipients: draft.recipients.map(({ role, name, email, routingOrder }) => ({
        role,
        name,
        email,
        routingOrder,
      })),
    },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const link = await t.mailer.signingLink(partner.email);
  t.mailer.sent.length = 0;
  const recipientId = (await view()).recipients.find((r) => r.email === partner.email)?.id as string;
  return { id, recipientId, link };
}

/**
 * The signer holding `link` confirms the code mailed to them, as the signing page does: asks for a code
 * (or takes the one already on its way), reads it from the mail and enters it; it must succeed.
 */
export async function confirmSigningCode(t: TestApp, link: string): Promise<void> {
  const headers = { 'x-signing-token': link };
  const opened = await t.app.inject({ method: 'GET', url: '/backend/signing', headers });
  expect(opened.statusCode, opened.body).toBe(200);
  const { verification } = opened.json() as SigningView;
  if (!verification.required || verification.verified) return;
  // The view names the address masked: the code mails to an address that masks the same.
  const to = (address: string) => maskedAddress(address) === verification.email;
  const before = t.mailer.signingCodeMails(to).length;
  const asked = await t.app.inject({ method: 'POST', url: '/backend/signing/code', headers });
  const resent = asked.statusCode === 200;
  if (!resent) expect(asked.json().error, asked.body).toBe('code_resend_too_early');
  const code = await t.mailer.signingCode(to, resent ? before : 0);
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/backend/signing/verify',
    headers,
    payload: { code },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
}

/**
 * The signer holding `link` confirms their code and signs with their typed name, as the signing page
 * sends it; it must succeed.
 */
export async function signWithLink(t: TestApp, link: string, typedName: string): Promise<void> {
  await confirmSigningCode(t, link);
  const signed = await t.app.inject({
    method: 'POST',
    url: '/backend/signing/sign',
    headers: { 'x-signing-token': link },
    payload: { consent: true, typedName },
  });
  expect(signed.statusCode, signed.body).toBe(200);
}
