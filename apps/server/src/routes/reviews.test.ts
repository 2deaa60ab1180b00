import {
  DOCX_MIME_TYPE,
  type DocumentDifferences,
  type DocumentReview,
  type Review,
  type ReviewerView,
} from '@vertragsgenerator/domain';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { MatchStore } from '../matches/match-store.js';
import { ReviewLinks } from '../reviews/review-links.js';
import { remindReviewers } from '../reviews/review-reminders.js';
import { loadSigningLinkKey } from '../signature/signing-links.js';
import { testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { eventually } from '../test/eventually.js';
import { bearer, codeInMail, createTestApp, type TestApp } from '../test/test-app.js';

const LEGAL = 'legal@demo.local';
const BERATER = 'berater@demo.local';
const KUNDE = 'kim.kunde@kunde.example';
const KUNDE2 = 'karl.einkauf@kunde.example';
const KEY = 'docx-de-wm-rv';
const MATCH = { ...demoMatch, matchId: 'PL-93001' };
const INTERNAL = 'Intern: Marge nicht unter 20 % gehen';
const OPS = 'ops@demo.local';

describe.each(testDatabases())('Negotiation on $name', (database) => {
  let db: Db;
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([MATCH]);
    t = await createTestApp(db, { demoStaff: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    for (const email of [LEGAL, BERATER, OPS]) tokens[email] = await t.signIn(email);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const as = (email: string) => bearer(tokens[email] as string);
  const review = (token: string) => ({ 'x-review-token': token });

  async function generate(): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/${KEY}/${MATCH.matchId}`,
      headers: as(LEGAL),
      payload: { dataList: demoDataList(KEY) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.headers['x-document-id'] as string;
  }

  /** The review link token mailed to `to`, the `nth` one (1: the first). */
  function reviewLink(to: string, nth = 1): Promise<string> {
    return eventually(`review link ${nth} to ${to}`, () => {
      const links = t.mailer.sent
        .filter((mail) => mail.to === to)
        .map((mail) => mail.text.match(/\/vertragspruefung#([A-Za-z0-9_-]+)/)?.[1])
        .filter((token): token is string => token !== undefined);
      return links.length >= nth ? links[nth - 1] : undefined;
    });
  }

  async function confirmCode(token: string, to: string): Promise<ReviewerView> {
    const before = t.mailer.sent.filter(
      (mail) => mail.to === to && /Bestätigungscode|confirmation code/.test(mail.subject),
    ).length;
    const sent = await t.app.inject({ method: 'POST', url: '/backend/review/code', headers: review(token) });
    expect(sent.statusCode, sent.body).toBe(200);
    const code = await eventually('the review code', () => {
      const mails = t.mailer.sent.filter(
        (mail) => mail.to === to && /Bestätigungscode|confirmation code/.test(mail.subject),
      );
      return mails.length > before ? codeInMail(mails.at(-1)?.text ?? '') : undefined;
    });
    const verified = await t.app.inject({
      method: 'POST',
      url: '/backend/review/verify',
      headers: review(token),
      payload: { code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json();
  }

  async function returnFile(
    token: string,
    docx: Buffer,
    source: 'upload' | 'browser',
    fileName = 'zurueck.docx',
  ) {
    return t.app.inject({
      method: 'POST',
      url: '/backend/review/return',
      headers: {
        ...review(token),
        'content-type': DOCX_MIME_TYPE,
        'x-review-source': source,
        'x-file-name': encodeURIComponent(fileName),
      },
      payload: docx,
    });
  }

  async function staffReview(documentId: string, by = LEGAL): Promise<Review> {
    const response = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${documentId}/review`,
      headers: as(by),
    });
    expect(response.statusCode, response.body).toBe(200);
    const { review } = response.json<DocumentReview>();
    expect(review).not.toBeNull();
    return review as Review;
  }

  it('runs two rounds: sent, commented, changed, decided, sent again, agreed', async () => {
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/backend/admin/webhooks',
      headers: as(OPS),
      payload: {
        url: 'http://localhost:9/hooks',
        events: ['review.sent', 'review.returned', 'review.agreed'],
      },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const documentId = await generate();
    const sent = await t.app.inject({
      method: 'POST',
      url: `/backend/documents/${documentId}/review`,
      headers: as(LEGAL),
      payload: {
        reviewers: [
          { name: 'Kim Kunde', email: KUNDE },
          { name: 'Karl Einkauf', email: KUNDE2 },
        ],
        message: 'Bitte bis Freitag prüfen.',
        dueDate: '2026-12-20',
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const started = sent.json<Review>();
    expect(started.rounds).toHaveLength(1);
    expect(started.rounds[0]).toMatchObject({ number: 1, state: 'sent', sentVersion: 1 });
    expect(started.rounds[0]?.reviewers.map((r) => r.email).sort()).toEqual([KUNDE2, KUNDE]);

    const token = await reviewLink(KUNDE);
    const invitation = t.mailer.sent.find((mail) => mail.to === KUNDE && /Bitte prüfen/.test(mail.subject));
    expect(invitation?.text).toContain('Bitte bis Freitag prüfen.');
    expect(invitation?.text).toContain('20.12.2026');

    // Before the code: the address masked, the message and the document withheld.
    const opened = await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(token) });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<ReviewerView>()).toMatchObject({
      message: '',
      reviewer: { email: 'k***@kunde.example' },
      round: 1,
    });
    const early = await t.app.inject({
      method: 'GET',
      url: '/backend/review/document',
      headers: review(token),
    });
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe('verification_required');

    const view = await confirmCode(token, KUNDE);
    expect(view).toMatchObject({
      message: 'Bitte bis Freitag prüfen.',
      reviewer: { email: KUNDE },
      language: 'de',
    });
    const document = await t.app.inject({
      method: 'GET',
      url: '/backend/review/document',
      headers: review(token),
    });
    expect(document.statusCode).toBe(200);
    expect(document.rawPayload.equals(await versionContent(documentId, 1))).toBe(true);

    // While the round is out, the editor may not change the text.
    const save = await t.app.inject({
      method: 'PUT',
      url: `/backend/documents/${documentId}`,
      headers: { ...as(LEGAL), 'content-type': DOCX_MIME_TYPE, 'if-match': '"1"' },
      payload: document.rawPayload,
    });
    expect(save.statusCode).toBe(409);
    expect(save.json().message).toMatch(/bei der Gegenseite/);

    // Comments: theirs, an internal note and an external reply of legal.
    const commented = await t.app.inject({
      method: 'POST',
      url: '/backend/review/comments',
      headers: review(token),
      payload: { text: 'Warum 30 Tage Zahlungsziel?', quote: 'Zahlungsziel' },
    });
    expect(commented.statusCode, commented.body).toBe(200);
    const theirs = commented.json<ReviewerView>().comments[0];
    expect(theirs).toMatchObject({
      author: { name: 'Kim Kunde', side: 'counterparty' },
      quote: 'Zahlungsziel',
    });
    const reviewId = started.id;
    for (const payload of [
      { text: INTERNAL, visibility: 'internal', parentId: theirs?.id },
      { text: 'Das ist unser Standard.', visibility: 'external', parentId: theirs?.id },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/backend/reviews/${reviewId}/comments`,
        headers: as(LEGAL),
        payload,
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const replyToInternal = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/comments`,
      headers: as(LEGAL),
      payload: {
        text: 'x',
        visibility: 'external',
        parentId: (await staffReview(documentId)).comments.find((c) => c.visibility === 'internal')?.id,
      },
    });
    expect(replyToInternal.statusCode).toBe(400);
    const theirView = await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(token) });
    expect(theirView.body).not.toContain(INTERNAL);
    expect(theirView.json<ReviewerView>().comments.map((c) => c.text)).toEqual([
      'Warum 30 Tage Zahlungsziel?',
      'Das ist unser Standard.',
    ]);

    // They send back their own Word file: a paragraph added, a word changed.
    const edited = withEdits(document.rawPayload);
    const returned = await returnFile(token, edited, 'upload', 'Vertrag – Anmerkungen Kunde.docx');
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json<ReviewerView>().returnedAt).not.toBeNull();
    const again = await returnFile(token, edited, 'upload');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('round_returned');
    const staffMail = await eventually('the mail to legal', () =>
      t.mailer.sent.find((mail) => mail.to === LEGAL && /Zurück von der Gegenseite/.test(mail.subject)),
    );
    expect(staffMail.text).toMatch(/Kim Kunde/);

    let state = await staffReview(documentId);
    const round1 = state.rounds[0];
    expect(round1).toMatchObject({ state: 'returned', returnedVia: 'upload', returnedVersion: 2 });
    const suggestions = round1?.suggestions ?? [];
    expect(suggestions.length).toBeGreaterThanOrEqual(2);
    expect(suggestions.every((s) => s.author === 'Kim Kunde' && s.outcome === 'open')).toBe(true);
    expect(suggestions.map((s) => s.text).join('|')).toContain('Gerichtsstand ist Hamburg.');
    // The returned version holds them as tracked changes; the version sent is unchanged.
    const version2 = await versionContent(documentId, 2);
    expect(documentXml(version2)).toMatch(/w:ins[^>]*w:author="Kim Kunde"/);

    // Agreeing with suggestions open is refused; deciding with a stale version too.
    const early409 = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/agree`,
      headers: as(LEGAL),
    });
    expect(early409.statusCode).toBe(409);
    const stale = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/decisions`,
      headers: as(LEGAL),
      payload: { baseVersion: 1, all: 'accepted' },
    });
    expect(stale.statusCode).toBe(409);

    const added = suggestions.find((s) => s.text === 'Gerichtsstand ist Hamburg.');
    const accept = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/decisions`,
      headers: as(LEGAL),
      payload: { baseVersion: 2, decisions: [{ id: added?.id, outcome: 'accepted' }] },
    });
    expect(accept.statusCode, accept.body).toBe(200);
    const rejectRest = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/decisions`,
      headers: as(LEGAL),
      payload: { baseVersion: 3, all: 'rejected' },
    });
    expect(rejectRest.statusCode, rejectRest.body).toBe(200);
    state = rejectRest.json<Review>();
    expect(state.rounds[0]?.suggestions.find((s) => s.id === added?.id)?.outcome).toBe('accepted');
    expect(state.rounds[0]?.suggestions.filter((s) => s.outcome === 'rejected')).toHaveLength(
      suggestions.length - 1,
    );
    const decidedXml = documentXml(await versionContent(documentId, 4));
    expect(decidedXml).toContain('Gerichtsstand ist Hamburg.');
    expect(decidedXml).not.toMatch(/<w:(ins|del)\b/);

    // The differences panel shows the added paragraph.
    const differences = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${documentId}/differences`,
      headers: as(LEGAL),
    });
    expect(differences.statusCode).toBe(200);
    expect(differences.json<DocumentDifferences>()).toMatchObject({
      version: 4,
      paragraphs: [{ generated: null, current: 'Gerichtsstand ist Hamburg.', marked: false }],
    });

    // Round 2 to Kim alone; they see what became of their suggestions and send it back without changes.
    const next = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/rounds`,
      headers: as(LEGAL),
      payload: { reviewers: [{ name: 'Kim Kunde', email: KUNDE }], dueDate: '2026-12-27' },
    });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json<Review>().rounds[1]).toMatchObject({ number: 2, state: 'sent', sentVersion: 4 });
    const token2 = await reviewLink(KUNDE, 2);
    const view2 = await confirmCode(token2, KUNDE);
    expect(view2.round).toBe(2);
    expect(view2.earlier[0]?.suggestions.find((s) => s.text === 'Gerichtsstand ist Hamburg.')?.outcome).toBe(
      'accepted',
    );
    expect(view2.earlier[0]?.suggestions.some((s) => s.outcome === 'rejected')).toBe(true);
    const none = await t.app.inject({
      method: 'POST',
      url: '/backend/review/return',
      headers: { ...review(token2), 'x-review-source': 'none' },
    });
    expect(none.statusCode, none.body).toBe(200);

    const agreed = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/agree`,
      headers: as(LEGAL),
    });
    expect(agreed.statusCode, agreed.body).toBe(200);
    expect(agreed.json()).toMatchObject({ envelopeId: null, review: { state: 'agreed', agreedVersion: 4 } });
    // The round-1 link of Karl reads nothing of round 2's decisions but still opens (read-only).
    // Other systems heard of each step, in order, with the version and its SHA-256.
    const events = (await db.selectFrom('webhook_events').select(['type', 'payload']).orderBy('id').execute())
      .map((event) => ({
        type: event.type,
        data: (typeof event.payload === 'string' ? JSON.parse(event.payload) : event.payload).data,
      }))
      .filter((event) => event.data.documentId === documentId);
    expect(events.map((event) => `${event.type}:${event.data.round}:${event.data.version}`)).toEqual([
      'review.sent:1:1',
      'review.returned:1:2',
      'review.sent:2:4',
      'review.returned:2:4',
      'review.agreed:2:4',
    ]);
    // Nothing the counterparty received holds the internal note: every part of both versions sent.
    for (const version of [1, 4]) {
      const zip = new PizZip(await versionContent(documentId, version));
      for (const part of Object.values(zip.files)) expect(part.asText()).not.toContain('Marge nicht unter');
    }
    const karl = await reviewLink(KUNDE2);
    const karlView = await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(karl) });
    expect(karlView.statusCode).toBe(200);
    expect(karlView.json<ReviewerView>().round).toBe(1);
  });

  it('refuses bad uploads with a German message and keeps nothing of them', async () => {
    const documentId = await generate();
    const { token } = await startWith(documentId, 'nina.neu@kunde.example');
    const docx = (
      await t.app.inject({ method: 'GET', url: '/backend/review/document', headers: review(token) })
    ).rawPayload;
    const zip = new PizZip(docx);
    zip.file('word/vbaProject.bin', Buffer.from('macro'));
    const cases: [string, Buffer, string, number][] = [
      ['vertrag.docm', docx, 'Makros', 422],
      ['vertrag.docx', Buffer.from('%PDF-1.7 kein Word'), 'kein Word-Dokument', 422],
      ['vertrag.docx', zip.generate({ type: 'nodebuffer' }), 'Makros', 422],
    ];
    for (const [name, content, message, status] of cases) {
      const response = await returnFile(token, content, 'upload', name);
      expect(response.statusCode, name).toBe(status);
      expect(response.json().message).toMatch(message);
    }
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/backend/review/return',
      headers: { ...review(token), 'content-type': 'application/json', 'x-review-source': 'upload' },
      payload: { file: 'x' },
    });
    expect(wrongType.statusCode).toBe(415);
    const state = await staffReview(documentId);
    expect(state.rounds[0]).toMatchObject({ state: 'sent', returnedVersion: null, suggestions: [] });
    const versions = await db
      .selectFrom('document_versions')
      .select('version')
      .where('document_id', '=', documentId)
      .execute();
    expect(versions).toHaveLength(1);
  });

  it('speaks English to the counterparty of an English contract: mails, refusals and the view', async () => {
    const generated = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/docx-en-wm-rv/${MATCH.matchId}`,
      headers: as(LEGAL),
      payload: { dataList: demoDataList('docx-en-wm-rv') },
    });
    expect(generated.statusCode, generated.body).toBe(200);
    const { token } = await startWith(
      generated.headers['x-document-id'] as string,
      'erin.english@customer.example',
    );
    const invitation = t.mailer.sent.find(
      (mail) => mail.to === 'erin.english@customer.example' && /review/i.test(mail.subject),
    );
    expect(invitation?.subject).toMatch(/^Please review: /);
    expect(invitation?.text).toMatch(/Please reply by 31 December 2026\./);
    const view = await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(token) });
    expect(view.json<ReviewerView>().language).toBe('en');
    const refused = await returnFile(token, Buffer.from('%PDF-1.7'), 'upload', 'contract.docx');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('The file is not a Word document. Please upload it as a .docx file.');
  });

  it('answers 410 for a withdrawn or expired link and locks after five wrong codes', async () => {
    const documentId = await generate();
    const { token, reviewId, reviewerId } = await startWith(documentId, 'olaf.offen@kunde.example', false);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const sentCode =
        attempt === 1
          ? await t.app.inject({ method: 'POST', url: '/backend/review/code', headers: review(token) })
          : undefined;
      if (sentCode) expect(sentCode.statusCode).toBe(200);
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/backend/review/verify',
        headers: review(token),
        payload: { code: '000000' },
      });
      // A guess could be right once in a million: the test names the code it knows is wrong.
      expect(wrong.statusCode).toBe(attempt < 5 ? 400 : 429);
    }
    const locked = await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(token) });
    expect(locked.json<ReviewerView>().verification.lockedUntil).not.toBeNull();

    await db
      .updateTable('review_reviewers')
      .set({ token_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', reviewerId)
      .execute();
    const expired = await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(token) });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({
      error: 'link_expired',
      message: expect.stringMatching(/abgelaufen/),
    });

    // Renewal mails a new link and voids the old one; withdrawal answers 410 for the new one.
    const renewed = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/reviewers/${reviewerId}/renew`,
      headers: as(LEGAL),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = await reviewLink('olaf.offen@kunde.example', 2);
    expect(fresh).not.toBe(token);
    expect(
      (await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(token) })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(fresh) })).statusCode,
    ).toBe(200);
    const withdrawn = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/reviewers/${reviewerId}/withdraw`,
      headers: as(LEGAL),
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const gone = await t.app.inject({ method: 'GET', url: '/backend/review', headers: review(fresh) });
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({
      error: 'link_withdrawn',
      message: expect.stringMatching(/zurückgezogen/),
    });
    const garbage = await t.app.inject({ method: 'GET', url: '/backend/review', headers: review('nope') });
    expect(garbage.statusCode).toBe(404);
  });

  it('reminds each reviewer once before the due date', async () => {
    const documentId = await generate();
    const soon = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await startWith(documentId, 'rita.rasch@kunde.example', true, soon);
    const outbox = new MailOutbox(db, t.mailer, 'support@demo.local');
    const links = new ReviewLinks({
      key: await loadSigningLinkKey(db),
      publicUrl: 'http://localhost',
      now: () => new Date(),
    });
    const first = await remindReviewers({ db, outbox, links }, new Date());
    const second = await remindReviewers({ db, outbox, links }, new Date());
    expect(first).toBeGreaterThanOrEqual(1);
    expect(second).toBe(0);
    await outbox.deliverDue();
    const reminder = t.mailer.sent.find(
      (mail) => mail.to === 'rita.rasch@kunde.example' && /Erinnerung/.test(mail.subject),
    );
    expect(reminder?.text).toMatch(/vertragspruefung#/);
  });

  it('keeps the negotiation to who may open the document', async () => {
    const documentId = await generate();
    // A consultant may not open a DOCX customer contract (legal only).
    const refused = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${documentId}/review`,
      headers: as(BERATER),
    });
    expect(refused.statusCode).toBe(403);
    const { reviewId } = await startWith(documentId, 'uwe.unbefugt@kunde.example');
    const comment = await t.app.inject({
      method: 'POST',
      url: `/backend/reviews/${reviewId}/comments`,
      headers: as(BERATER),
      payload: { text: 'x', visibility: 'internal' },
    });
    expect(comment.statusCode).toBe(403);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/backend/reviews/not-a-uuid/agree',
      headers: as(LEGAL),
    });
    expect(unknown.statusCode).toBe(404);
    const noToken = await t.app.inject({ method: 'GET', url: `/backend/documents/${documentId}/review` });
    expect(noToken.statusCode).toBe(401);
  });

  /** Sends `documentId` to one reviewer; their link, with the code confirmed unless `verify` is false. */
  async function startWith(documentId: string, email: string, verify = true, dueDate = '2026-12-31') {
    const response = await t.app.inject({
      method: 'POST',
      url: `/backend/documents/${documentId}/review`,
      headers: as(LEGAL),
      payload: { reviewers: [{ name: 'Gegenseite', email }], dueDate },
    });
    expect(response.statusCode, response.body).toBe(201);
    const started = response.json<Review>();
    const token = await reviewLink(email);
    if (verify) await confirmCode(token, email);
    return { token, reviewId: started.id, reviewerId: started.rounds[0]?.reviewers[0]?.id as string };
  }

  async function versionContent(documentId: string, version: number): Promise<Buffer> {
    const row = await db
      .selectFrom('document_versions')
      .select('content')
      .where('document_id', '=', documentId)
      .where('version', '=', version)
      .executeTakeFirstOrThrow();
    return Buffer.from(row.content);
  }
});

/** The customer's edit in Word: a paragraph of theirs first, and „Monat“ made „Quartal“ somewhere. */
function withEdits(docx: Buffer): Buffer {
  const zip = new PizZip(docx);
  const xml = zip.file('word/document.xml')?.asText() ?? '';
  const changed = xml
    .replace('<w:body>', '<w:body><w:p><w:r><w:t>Gerichtsstand ist Hamburg.</w:t></w:r></w:p>')
    .replace(/(<w:t(?:\s[^>]*)?>[^<]*?)Monat/, '$1Quartal');
  zip.file('word/document.xml', changed);
  return zip.generate({ type: 'nodebuffer' });
}

function documentXml(docx: Uint8Array): string {
  return new PizZip(docx).file('word/document.xml')?.asText() ?? '';
}
