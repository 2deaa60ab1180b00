import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedMatch } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { MailOutbox } from '../../mail/mail-outbox.js';
import type { MailMessage } from '../../mail/mailer.js';
import { MatchStore } from '../../matches/match-store.js';
import { sha256Hex } from '../../shared/sha256.js';
import { richestDemoMatch } from '../../templates/samples.js';
import { pgliteTestDatabase, testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/eventually.js';
import { sentPartnerEnvelope, signWithLink } from '../../test/partner-envelope.js';
import { embeddedFiles, pdfPages, pdfsig } from '../../test/pdf-tools.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { EnvelopesRepository } from '../envelopes-repository.js';
import { EnvelopeSealer, type EnvelopeSealerDeps } from './envelope-sealer.js';
import { createSelfSignedSeal, type SealCertificate } from './seal-certificate.js';
import { loadSeal } from './seal-store.js';
import { sealedEnvelopePdf } from './sealed-envelope-pdf.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const PUBLIC_URL = 'https://vertraege.firma.example';
const SEAL_NAME = 'Vertragsgenerator-Siegel vertraege.firma.example';
const partner = { name: 'Paul Partner', email: 'paul@partner.example' };
const quiet = { warn() {} };

describe.each(testDatabases())('sealing completed envelopes on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let berater: string;
  let seal: SealCertificate;
  /**
   * How the app's own sealing (the run a completion starts) behaves: it seals, fails as a broken seal
   * would, or holds the envelope it leased until the test ends, so that it leases nothing more while the
   * test's sealers work.
   */
  let appSealing: 'seals' | 'fails' | 'holds' = 'seals';
  /** The envelopes the app's sealing holds, each with what lets it go (failing). */
  const held = new Map<string, () => void>();
  const sealWithServerSeal = (envelope: Parameters<typeof sealedEnvelopePdf>[0], sealedAt: Date) =>
    sealedEnvelopePdf(envelope, { seal, publicUrl: PUBLIC_URL, sealedAt });

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, {
      env: { PUBLIC_URL },
      demoStaff: true,
      sealEnvelope: async (envelope, sealedAt) => {
        if (appSealing === 'fails') throw new Error('Siegel nicht verfügbar');
        if (appSealing === 'holds') {
          await new Promise<void>((_, reject) => {
            held.set(envelope.envelopeId, () => reject(new Error('Siegel nicht verfügbar')));
          });
        }
        return sealWithServerSeal(envelope, sealedAt);
      },
    });
    // The app made the server's seal on its start; this reads the same one back.
    seal = await loadSeal(db, { commonName: 'nicht benutzt' });
    berater = await t.signIn('berater@demo.local');
  });
  afterAll(async () => {
    // A held run must end before the app's stop, which waits for it.
    for (const letGo of held.values()) letGo();
    await t.app.close();
    await db.destroy();
  });

  const mailsTo = (to: string, subject: RegExp): Promise<MailMessage[]> =>
    eventually(`a mail to ${to} with ${subject}`, () => {
      const found = t.mailer.sent.filter((m) => m.to === to && subject.test(m.subject));
      return found.length > 0 ? found : undefined;
    });

  /** A project partner contract sent by Berta and signed by the partner: completed. */
  async function completedEnvelope(): Promise<string> {
    const { id, link } = await sentPartnerEnvelope(t, { token: berater, matchId: match.matchId, partner });
    await signWithLink(t, link, partner.name);
    return id;
  }

  const envelopeRow = (id: string) =>
    db
      .selectFrom('envelopes')
      .select(['status', 'sealed_pdf', 'sealed_sha256', 'seal_error', 'seal_due_at', 'document_sha256'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  const sealingFailed = (id: string) =>
    eventually(`a failed sealing of envelope ${id}`, async () => {
      const row = await envelopeRow(id);
      return row.seal_error ? row : undefined;
    });

  const sealer = (renderContract?: EnvelopeSealerDeps['renderContract']) =>
    new EnvelopeSealer({
      db,
      envelopes: new EnvelopesRepository(db),
      outbox: new MailOutbox(db, t.mailer, 'support@demo.local', quiet),
      seal: sealWithServerSeal,
      log: quiet,
      ...(renderContract ? { renderContract } : {}),
    });

  /**
   * A completed envelope due for the test's sealers, with no attempt counted. The run its completion
   * started holds it: a run that failed would go on to lease again, and could take the envelope back
   * from the test once it is due. The test app runs no periodic sealing.
   */
  async function unsealedEnvelope(): Promise<string> {
    appSealing = 'holds';
    const id = await completedEnvelope();
    await eventually(`the app's sealing of ${id} held`, () => held.has(id) || undefined);
    await db
      .updateTable('envelopes')
      .set({ seal_due_at: sql<Date>`now()`, seal_attempts: 0 })
      .where('id', '=', id)
      .execute();
    return id;
  }

  /** The partner contract as LibreOffice renders it: one page with the partner's signature block. */
  async function renderedContract(): Promise<Uint8Array> {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage();
    page.drawText('Projektpartnervertrag', { x: 72, y: 700, size: 14, font });
    for (const [anchor, y] of [
      ['/sig_pp/', 240],
      ['/dat_pp/', 200],
      ['/nam_pp/', 160],
    ] as const) {
      page.drawText(anchor, { x: 72, y, size: 1, font, color: rgb(1, 1, 1) });
    }
    return pdf.save();
  }

  it('seals the completed envelope and mails the sealed PDF, with the document inside, to everyone', async () => {
    appSealing = 'seals';
    const id = await completedEnvelope();
    for (const party of [partner.email, 'berater@demo.local']) {
      const [mail] = await mailsTo(party, /^Abgeschlossen:/);
      const pdf = mail?.attachments?.find((a) => a.contentType === 'application/pdf');
      expect(pdf?.filename, party).toMatch(/ - unterschrieben\.pdf$/);
      const report = await pdfsig(pdf?.content ?? new Uint8Array());
      expect(report).toMatch(/Signature Type: ETSI\.CAdES\.detached/);
      expect(report).toMatch(
        new RegExp(`Signer Certificate Common Name: ${SEAL_NAME.replaceAll('.', '\\.')}`),
      );
      expect(report).toMatch(/Total document signed/);
      expect(report).toMatch(/Signature Validation: Signature is Valid\./);
      const row = await envelopeRow(id);
      expect(row.sealed_sha256).toBe(sha256Hex(pdf?.content ?? new Uint8Array()));
      const [inside] = [...(await embeddedFiles(pdf?.content ?? new Uint8Array())).values()];
      expect(sha256Hex(inside ?? new Uint8Array())).toBe(row.document_sha256);
    }
  });

  it('keeps a completed envelope whose seal fails, records why, mails nothing yet, and seals it later', async () => {
    appSealing = 'fails';
    const id = await completedEnvelope();
    const failed = await sealingFailed(id);
    expect(failed.status).toBe('completed');
    expect(failed.seal_error).toBe('Siegel nicht verfügbar');
    expect(failed.sealed_pdf).toBeNull();
    // Tried again later, not at once.
    expect(failed.seal_due_at?.getTime()).toBeGreaterThan(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.mailer.sent.filter((m) => m.subject.startsWith('Abgeschlossen:'))).toEqual([]);

    // A later run seals it: the test's, or the app's failed run if it was still looking for work when
    // the envelope came due (its sealing now works too). Either way, once.
    appSealing = 'seals';
    await db.updateTable('envelopes').set({ seal_due_at: sql<Date>`now()` }).where('id', '=', id).execute();
    await sealer().sealDue();
    const sealed = await eventually(`envelope ${id} sealed`, async () => {
      const row = await envelopeRow(id);
      return row.sealed_pdf ? row : undefined;
    });
    expect(sealed.seal_error).toBeNull();
    expect(sealed.seal_due_at).toBeNull();
    const queued = await db
      .selectFrom('outgoing_mail')
      .select('recipient')
      .where('reference', '=', `envelope:${id}`)
      .where('subject', 'like', 'Abgeschlossen:%')
      .execute();
    expect(queued.map((m) => m.recipient).sort()).toEqual(['berater@demo.local', partner.email].sort());
  });

  it("puts the contract's pages, with the partner's signature in its block, before the certificate", async () => {
    const id = await unsealedEnvelope();
    const contract = await renderedContract();
    expect(await sealer(async () => contract).sealDue()).toBe(1);
    const sealed = Buffer.from((await envelopeRow(id)).sealed_pdf ?? new Uint8Array());
    expect(await pdfsig(sealed)).toMatch(/Signature Validation: Signature is Valid\./);
    const pages = await pdfPages(sealed);
    expect(pages[0]).toContain('Projektpartnervertrag');
    expect(pages[0]).toContain(partner.name);
    expect(pages[0]).toMatch(/elektronisch unterschrieben am \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} Uhr/);
    expect(pages[1]).toMatch(/Abschlusszertifikat|Zertifikat/);
  });

  it('tries LibreOffice again with the seal, and seals without contract pages after the third failure', async () => {
    const id = await unsealedEnvelope();
    // Once LibreOffice fails, once it makes something that is no PDF.
    let calls = 0;
    const failing = sealer(async () => {
      if (++calls === 1) throw new Error('LibreOffice: source file could not be loaded');
      return Buffer.from('%PDF-1.7\n%%EOF\n');
    });
    for (const [attempt, error] of [
      [1, 'LibreOffice: source file could not be loaded'],
      [2, 'LibreOffice made no readable PDF'],
    ] as const) {
      expect(await failing.sealDue(), `attempt ${attempt}`).toBe(0);
      expect((await envelopeRow(id)).seal_error).toMatch(new RegExp(`^${error}`));
      await db.updateTable('envelopes').set({ seal_due_at: sql<Date>`now()` }).where('id', '=', id).execute();
    }
    expect(await failing.sealDue()).toBe(1);
    const sealed = Buffer.from((await envelopeRow(id)).sealed_pdf ?? new Uint8Array());
    expect((await pdfPages(sealed))[0]).not.toContain('Projektpartnervertrag');
    expect(await pdfsig(sealed)).toMatch(/Signature Validation: Signature is Valid\./);
  });

  it('seals and mails an envelope once when two replicas run at the same moment', async () => {
    const id = await unsealedEnvelope();
    const [a, b] = await Promise.all([sealer().sealDue(), sealer().sealDue()]);
    expect(a + b).toBe(1);
    const queued = await db
      .selectFrom('outgoing_mail')
      .select('recipient')
      .where('reference', '=', `envelope:${id}`)
      .where('subject', 'like', 'Abgeschlossen:%')
      .execute();
    expect(queued).toHaveLength(2);
  });

  it('seals with one certificate on every replica: the first one made is kept', async () => {
    await db.deleteFrom('seal_certificate').execute();
    const [a, b] = await Promise.all([
      loadSeal(db, { commonName: 'Replik A' }),
      loadSeal(db, { commonName: 'Replik B' }),
    ]);
    expect(a.fingerprint).toBe(b.fingerprint);
    expect((await loadSeal(db, { commonName: 'später' })).fingerprint).toBe(a.fingerprint);
  });

  it('refuses a company certificate with a wrong password, naming the variable', async () => {
    await expect(
      loadSeal(db, { configured: { p12: seal.p12, passphrase: 'falsch' }, commonName: 'x' }),
    ).rejects.toThrow(/SEAL_P12_PASSWORD/);
  });
});

describe('a company seal that cannot seal stops the start', () => {
  const folder = mkdtempSync(join(tmpdir(), 'vg-seal-start-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  async function startWith(p12: Buffer, password: string) {
    const file = join(folder, `${Math.random().toString(36).slice(2)}.p12`);
    writeFileSync(file, p12);
    const db = await pgliteTestDatabase.open();
    try {
      const t = await createTestApp(db, { env: { SEAL_P12_FILE: file, SEAL_P12_PASSWORD: password } });
      await t.app.close();
    } finally {
      await db.destroy();
    }
  }

  it('with a wrong SEAL_P12_PASSWORD', async () => {
    const company = await createSelfSignedSeal('Muster AG');
    await expect(startWith(company.p12, 'falsch')).rejects.toThrow(
      'The seal certificate cannot be read: the password (SEAL_P12_PASSWORD) does not open it.',
    );
    await expect(startWith(company.p12, company.passphrase)).resolves.toBeUndefined();
    // Two starts on fresh databases and an RSA key made in JavaScript: seconds each in a busy full run.
  }, 60_000);

  it('with an expired certificate', async () => {
    const old = await createSelfSignedSeal('Alt GmbH', new Date('2010-01-01T00:00:00Z'));
    await expect(startWith(old.p12, old.passphrase)).rejects.toThrow(
      'The seal certificate expired on 2020-01-01T00:00:00.000Z: a new one is needed.',
    );
  });
});
