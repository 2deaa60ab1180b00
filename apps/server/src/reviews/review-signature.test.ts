import {
  DOCX_MIME_TYPE,
  type DocumentReview,
  type EnvelopeView,
  type ResolvedMatch,
  type Review,
} from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { demoMatch } from '../test/demo-order.js';
import { eventually } from '../test/eventually.js';
import { signWithLink } from '../test/partner-envelope.js';
import { pdfPages } from '../test/pdf-tools.js';
import { bearer, codeInMail, createTestApp, type TestApp } from '../test/test-app.js';

/** Remote and onsite margin 30 %: only the edited text could ask for Freigabe, and the test switches that off. */
const MATCH: ResolvedMatch = { ...demoMatch, matchId: 'PL-93101', vk: 1000, ek: 700, vk2: 1000, ek2: 700 };
const BERATER = 'berater@demo.local';
const LEGAL = 'legal@demo.local';
const PARTNER = { name: 'Paula Partner', email: 'paula.partner@partner.example' };
const ADDED = 'Reisekosten werden nach Beleg erstattet.';

describe.each(testDatabases())('a negotiated contract signed on $name', (database) => {
  let db: Db;
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([MATCH]);
    t = await createTestApp(db, { demoStaff: true });
    for (const email of [BERATER, LEGAL]) tokens[email] = await t.signIn(email);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const as = (email: string) => bearer(tokens[email] as string);
  const post = async (url: string, payload?: object, by = BERATER) =>
    t.app.inject({ method: 'POST', url, headers: as(by), ...(payload ? { payload } : {}) });

  async function reviewerLink(nth: number): Promise<string> {
    const token = await eventually(`review link ${nth}`, () => {
      const links = t.mailer.sent
        .filter((mail) => mail.to === PARTNER.email)
        .map((mail) => mail.text.match(/\/vertragspruefung#([A-Za-z0-9_-]+)/)?.[1])
        .filter((found): found is string => found !== undefined);
      return links.length >= nth ? links[nth - 1] : undefined;
    });
    const headers = { 'x-review-token': token };
    const before = t.mailer.sent.filter((mail) => /Bestätigungscode/.test(mail.subject)).length;
    expect((await t.app.inject({ method: 'POST', url: '/backend/review/code', headers })).statusCode).toBe(
      200,
    );
    const code = await eventually('the code', () => {
      const mails = t.mailer.sent.filter((mail) => /Bestätigungscode/.test(mail.subject));
      return mails.length > before ? codeInMail(mails.at(-1)?.text ?? '') : undefined;
    });
    const verified = await t.app.inject({
      method: 'POST',
      url: '/backend/review/verify',
      headers,
      payload: { code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    return token;
  }

  it('goes out for signature in its agreed version, and its certificate lists both rounds with their SHA-256', async () => {
    // The consultant's partner contract as an envelope draft: whoever may generate it may negotiate it.
    const created = await post(`/backend/generateDocusign/de-we-pp-ev/${MATCH.matchId}`, {
      dataList: {
        Absender_UserName: 'Berta Berater',
        Absender_Email: BERATER,
        Projektpartner_UserName: PARTNER.name,
        Projektpartner_Email: PARTNER.email,
        vertragspartner_type: 'pp',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const envelopeId = (created.json().data as string).split('/').pop() as string;
    const draft: EnvelopeView = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes/${envelopeId}`,
        headers: as(BERATER),
      })
    ).json();

    // Before the first round, the form is offered the counterparty's signers of the draft: not the
    // company's countersignatory, a copy's recipient or a person whose data was erased.
    await db
      .insertInto('envelope_recipients')
      .values(
        [
          {
            role: 'CC' as const,
            name: 'Carla Kopie',
            email: 'carla@we.example',
            routing_order: 2,
            erased_at: null,
          },
          {
            role: 'Firma' as const,
            name: 'Henrik Albers',
            email: 'h.albers@we.example',
            routing_order: 2,
            erased_at: null,
          },
          {
            role: 'Kunde' as const,
            name: 'Gelöscht',
            email: 'geloescht@invalid',
            routing_order: 1,
            erased_at: new Date(),
          },
        ].map((recipient, index) => ({
          ...recipient,
          envelope_id: envelopeId,
          position: 10 + index,
          status: 'waiting' as const,
        })),
      )
      .execute();
    const proposed = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${draft.documentId}/review`,
      headers: as(LEGAL),
    });
    expect(proposed.json<DocumentReview>()).toEqual({ review: null, proposedReviewers: [PARTNER] });
    await db
      .deleteFrom('envelope_recipients')
      .where('envelope_id', '=', envelopeId)
      .where('position', '>=', 10)
      .execute();

    const started = await post(`/backend/documents/${draft.documentId}/review`, {
      reviewers: [PARTNER],
      message: '',
      dueDate: '2027-01-08',
    });
    expect(started.statusCode, started.body).toBe(201);
    const reviewId = started.json<Review>().id;
    expect(started.json<Review>().envelopeId).toBe(envelopeId);
    const underway = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${draft.documentId}/review`,
      headers: as(LEGAL),
    });
    expect(underway.json<DocumentReview>()).toMatchObject({
      review: { id: reviewId },
      proposedReviewers: [],
    });

    // While the round is out, the draft does not go to the signers.
    const tooEarly = await post(`/backend/signature/envelopes/${envelopeId}/send`, {
      subject: draft.subject,
      message: '',
      recipients: draft.recipients.map(({ role, name, email, routingOrder }) => ({
        role,
        name,
        email,
        routingOrder,
      })),
    });
    expect(tooEarly.statusCode).toBe(409);
    expect(tooEarly.json().message).toMatch(/Runde 1 bei der Gegenseite/);

    // Round 1: the partner suggests a paragraph in the browser (a tracked insertion of theirs).
    const link1 = await reviewerLink(1);
    const sent = await t.app.inject({
      method: 'GET',
      url: '/backend/review/document',
      headers: { 'x-review-token': link1 },
    });
    const returned = await t.app.inject({
      method: 'POST',
      url: '/backend/review/return',
      headers: { 'x-review-token': link1, 'content-type': DOCX_MIME_TYPE, 'x-review-source': 'browser' },
      payload: withSuggestedParagraph(sent.rawPayload),
    });
    expect(returned.statusCode, returned.body).toBe(200);
    const decided = await post(`/backend/reviews/${reviewId}/decisions`, { baseVersion: 2, all: 'accepted' });
    expect(decided.statusCode, decided.body).toBe(200);

    // Round 2: sent back without changes, then agreed.
    const next = await post(`/backend/reviews/${reviewId}/rounds`, {
      reviewers: [PARTNER],
      dueDate: '2027-01-15',
    });
    expect(next.statusCode, next.body).toBe(201);
    const link2 = await reviewerLink(2);
    const none = await t.app.inject({
      method: 'POST',
      url: '/backend/review/return',
      headers: { 'x-review-token': link2, 'x-review-source': 'none' },
    });
    expect(none.statusCode, none.body).toBe(200);
    const agreed = await post(`/backend/reviews/${reviewId}/agree`);
    expect(agreed.statusCode, agreed.body).toBe(200);
    expect(agreed.json()).toMatchObject({ envelopeId, review: { state: 'agreed', agreedVersion: 3 } });
    const review = agreed.json().review as Review;

    // Legal lets edited texts go without Freigabe here: the test is about the negotiation's record.
    const rules = (
      await t.app.inject({ method: 'GET', url: '/backend/approval-rules', headers: as(LEGAL) })
    ).json();
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/backend/approval-rules',
      headers: as(LEGAL),
      payload: { rules: { ...rules.rules, editedText: false } },
    });
    expect(changed.statusCode, changed.body).toBe(200);

    t.mailer.sent.length = 0;
    const send = await post(`/backend/signature/envelopes/${envelopeId}/send`, {
      subject: draft.subject,
      message: '',
      recipients: draft.recipients.map(({ role, name, email, routingOrder }) => ({
        role,
        name,
        email,
        routingOrder,
      })),
    });
    expect(send.statusCode, send.body).toBe(200);
    const sentEnvelope: EnvelopeView = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes/${envelopeId}`,
        headers: as(BERATER),
      })
    ).json();
    // The envelope carries the agreed version, which round 2 sent.
    expect(sentEnvelope.documentSha256).toBe(review.rounds[1]?.sentSha256);
    await signWithLink(t, await t.mailer.signingLink(PARTNER.email), PARTNER.name);

    const certificate = await t.app.inject({
      method: 'GET',
      url: `/backend/signature/envelopes/${envelopeId}/certificate`,
      headers: as(BERATER),
    });
    expect(certificate.statusCode, certificate.body).toBe(200);
    const text = (await pdfPages(certificate.rawPayload)).join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Verhandlung (2 Runden)');
    for (const round of review.rounds) {
      expect(text).toContain(round.sentSha256);
      if (round.returnedSha256) expect(text).toContain(round.returnedSha256);
    }
    expect(text).toMatch(/Runde 2 zurück Paula Partner.*ohne Änderungen/);

    // The running contract's record points to the negotiation.
    const record = await db
      .selectFrom('contract_records')
      .select('id')
      .where('envelope_id', '=', envelopeId)
      .executeTakeFirstOrThrow();
    const contract = await t.app.inject({
      method: 'GET',
      url: `/backend/contracts/${record.id}`,
      headers: as(LEGAL),
    });
    expect(contract.statusCode, contract.body).toBe(200);
    expect(contract.json().negotiation).toEqual({ rounds: 2, agreedAt: review.agreedAt });
  });
});

/** What superdoc exports in suggesting mode: the partner's paragraph as a tracked insertion with their name. */
function withSuggestedParagraph(docx: Buffer): Buffer {
  const zip = new PizZip(docx);
  const xml = zip.file('word/document.xml')?.asText() ?? '';
  zip.file(
    'word/document.xml',
    xml.replace(
      '<w:body>',
      `<w:body><w:p><w:pPr><w:rPr><w:ins w:id="7001" w:author="${PARTNER.name}" w:date="2027-01-02T09:00:00Z"/></w:rPr></w:pPr><w:ins w:id="7002" w:author="${PARTNER.name}" w:date="2027-01-02T09:00:00Z"><w:r><w:t>${ADDED}</w:t></w:r></w:ins></w:p>`,
    ),
  );
  return zip.generate({ type: 'nodebuffer' });
}
