import { join } from 'node:path';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { CONTRACT_MATCH } from './app.mjs';
import { invitationLink, mailedCode } from './signing.mjs';

/** Legal staff send the customer contract for review; the customer's page is what is measured. */
const LEGAL = 'legal@demo.local';
const CUSTOMER = { name: 'Kim Kunde', email: 'kim.kunde@bench.example' };

/**
 * A DOCX customer contract of CONTRACT_MATCH sent for review to CUSTOMER through the API, as the editor's
 * panel sends it, with the customer's code confirmed (as for the signing link, the way to the contract is
 * measured, not the mail); answers the review link from the invitation the embedded mailer wrote.
 */
export async function reviewLink(baseUrl, dataDir) {
  const token = await signInDemoAccount(baseUrl, LEGAL);
  const call = async (method, path, body) => {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  const generated = await call('POST', `/backend/generateDocx/docx-de-wm-rv/${CONTRACT_MATCH}`, {
    dataList: { vertragspartner_type: 'k' },
  });
  const documentId = generated.headers.get('x-document-id');
  await call('POST', `/backend/documents/${documentId}/review`, {
    reviewers: [CUSTOMER],
    message: 'Bitte prüfen Sie den Rahmenvertrag.',
    dueDate: new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10),
  });
  const mailDir = join(dataDir, 'mail');
  const link = await invitationLink(mailDir, CUSTOMER.email, 'vertragspruefung');
  const headers = { 'x-review-token': link.split('#')[1], 'content-type': 'application/json' };
  const since = Date.now();
  const asked = await fetch(new URL('/backend/review/code', baseUrl), {
    method: 'POST',
    headers,
    body: '{}',
  });
  if (!asked.ok) throw new Error(`POST /backend/review/code: ${asked.status} ${await asked.text()}`);
  const code = await mailedCode(mailDir, CUSTOMER.email, 'Ihr Bestätigungscode', since);
  const verified = await fetch(new URL('/backend/review/verify', baseUrl), {
    method: 'POST',
    headers,
    body: JSON.stringify({ code }),
  });
  if (!verified.ok)
    throw new Error(`POST /backend/review/verify: ${verified.status} ${await verified.text()}`);
  return { documentId, link };
}
