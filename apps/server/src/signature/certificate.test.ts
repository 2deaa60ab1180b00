import { PDFDocument } from 'pdf-lib';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { png } from '../test/png-fixture.js';
import { type CertificateInput, type CertificateSigner, renderCertificate } from './certificate.js';
import { certificateInput } from './certificate-input.js';

const SHA256 = 'a3f1c2d4e5b60718293a4b5c6d7e8f9001122334455667788990aabbccddeeff';
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const signer = (overrides: Partial<CertificateSigner>): CertificateSigner => ({
  role: 'Kunde',
  name: 'Łukasz Żółć',
  email: 'lukasz.zolc@elbwerk.example',
  typedName: 'Łukasz Żółć',
  // Summer: Berlin is UTC+2.
  signedAt: new Date('2026-07-01T08:15:03Z'),
  ip: '203.0.113.7',
  userAgent: USER_AGENT,
  drawnSignaturePng: png(60, 20),
  verification: {
    email: 'lukasz.zolc@elbwerk.example',
    at: new Date('2026-07-01T08:12:41Z'),
    ip: '203.0.113.7',
  },
  ...overrides,
});

const input = (overrides: Partial<CertificateInput> = {}): CertificateInput => ({
  envelopeId: '7b1f6c1e-3a51-4c7a-9f1e-2d7f9c3b8a10',
  subject: 'Rahmenvertrag Beratungsleistungen – Elbwerk Logistik AG',
  matchId: 'M-2026-0042',
  docKey: 'rahmenvertrag-kunde',
  document: { fileName: 'Rahmenvertrag_Elbwerk_Logistik_AG.docx', sha256: SHA256, size: 48213 },
  sender: { name: 'Maria Schmidt', email: 'maria.schmidt@wm-consulting.example' },
  // Winter: Berlin is UTC+1.
  createdAt: new Date('2026-11-21T09:15:03Z'),
  completedAt: new Date('2026-11-22T14:01:59Z'),
  signers: [
    signer({}),
    signer({
      role: 'Partner',
      name: 'Ανδρέας Παπαδόπουλος',
      email: 'andreas@partner.example',
      typedName: 'Андрей Иванов',
      signedAt: new Date('2026-11-22T14:01:58Z'),
      ip: '2001:db8::8a2e:370:7334',
      userAgent: null,
      drawnSignaturePng: null,
      verification: null,
    }),
  ],
  copies: [{ name: 'Buchhaltung', email: 'buchhaltung@wm-consulting.example' }],
  events: [
    { at: new Date('2026-11-21T09:15:03Z'), label: 'Erstellt', actor: 'Maria Schmidt', ip: null },
    {
      at: new Date('2026-11-22T14:01:58Z'),
      label: 'Unterschrieben',
      actor: 'Ανδρέας Παπαδόπουλος',
      ip: '198.51.100.23',
    },
  ],
  ...overrides,
});

/** Per page, the text a reader can copy out of the PDF: one line per text line. */
async function pdfPages(pdf: Uint8Array) {
  // pdf.js takes ownership of the buffer it is given.
  const document = await getDocument({ data: pdf.slice(), verbosity: 0 }).promise;
  const pages: { text: string; images: number }[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    const text = content.items
      .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
      .join('');
    const operators = await page.getOperatorList();
    const images = operators.fnArray.filter((fn) => fn === OPS.paintImageXObject).length;
    pages.push({ text, images });
  }
  await document.destroy();
  return pages;
}

const allText = (pages: { text: string }[]) => pages.map((page) => page.text).join('\n');
const allImages = (pages: { images: number }[]) => pages.reduce((sum, page) => sum + page.images, 0);

describe('the completion certificate', () => {
  it('names the document by its full SHA-256 and every signer with the evidence of signing', async () => {
    const text = allText(await pdfPages(await renderCertificate(input())));
    expect(text).toContain('Abschlusszertifikat');
    expect(text).toContain(SHA256);
    expect(text).toContain('Rahmenvertrag_Elbwerk_Logistik_AG.docx');
    expect(text).toContain('48.213 Bytes');
    expect(text).toContain('M-2026-0042');
    expect(text).toContain('rahmenvertrag-kunde');
    expect(text).toContain('Maria Schmidt <maria.schmidt@wm-consulting.example>');
    for (const expected of [
      'Łukasz Żółć',
      'lukasz.zolc@elbwerk.example',
      '203.0.113.7',
      'Ανδρέας Παπαδόπουλος',
      'andreas@partner.example',
      'Андрей Иванов',
      '2001:db8::8a2e:370:7334',
      'Keine gezeichnete Unterschrift (getippter Name)',
      'Buchhaltung <buchhaltung@wm-consulting.example>',
      '198.51.100.23',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('Seite 1 von ');
    expect(text).toContain('SHA-256-Hashwert identifiziert das unterzeichnete Dokument');
  });

  it('states beside each signer how they confirmed their address, and that the signing page showed the hash', async () => {
    const text = allText(await pdfPages(await renderCertificate(input()))).replace(/\s+/g, ' ');
    expect(text).toContain(
      'Identität bestätigt per E-Mail-Code an lukasz.zolc@elbwerk.example am 01.07.2026 10:12:41 (Europe/Berlin) von IP 203.0.113.7',
    );
    // The second signer was asked for no code.
    expect(text).toContain('Kein E-Mail-Code verlangt');
    expect(text.indexOf('Identität bestätigt')).toBeLessThan(text.indexOf('Ανδρέας Παπαδόπουλος'));
    expect(text.indexOf('Kein E-Mail-Code verlangt')).toBeGreaterThan(text.indexOf('Ανδρέας Παπαδόπουλος'));
    expect(text).toContain(
      'Angezeigt jedem Unterzeichner auf der Seite zum Unterschreiben, vor seiner Unterschrift',
    );
  });

  it('names who approved the envelope before it was sent, and when (Freigabe)', async () => {
    const approval = { by: 'Leo Leitung <leitung@demo.local>', at: new Date('2026-11-21T12:30:00Z') };
    const text = allText(await pdfPages(await renderCertificate(input({ approval })))).replace(/\s+/g, ' ');
    expect(text).toContain(
      'Freigegeben Leo Leitung <leitung@demo.local>, 21.11.2026 13:30:00 (Europe/Berlin)',
    );
    const without = allText(await pdfPages(await renderCertificate(input({ approval: null }))));
    expect(without).not.toContain('Freigegeben');
  });

  it('takes the approval from the envelope’s last `approved` event: the approver as named, its time', async () => {
    const event = (type: 'created' | 'approved', at: string, actor: string, detail: string | null) => ({
      id: `${type}-${at}`,
      envelope_id: 'env-1',
      recipient_id: null,
      type,
      actor,
      ip: null,
      user_agent: null,
      detail,
      at: new Date(at),
    });
    const envelope = {
      id: 'env-1',
      subject: 'Bitte unterschreiben',
      match_id: 'PL-90001',
      doc_key: 'de-we-pp-ev',
      file_name: 'Projektpartnervertrag.docx',
      document_sha256: SHA256,
      sender_name: 'Berta Berater',
      sender_email: 'berater@demo.local',
      created_at: new Date('2026-11-20T08:00:00Z'),
    };
    const events = [
      event('created', '2026-11-20T08:00:00Z', 'berater@demo.local', null),
      // A void approval's decision, then the one the envelope was sent under.
      event(
        'approved',
        '2026-11-20T09:00:00Z',
        'elif.engel@demo.local',
        'Elif Engel <elif.engel@demo.local>',
      ),
      event(
        'approved',
        '2026-11-21T12:30:00Z',
        'leitung@demo.local',
        'Leo Leitung <leitung@demo.local>: Passt.',
      ),
    ];
    const made = certificateInput(envelope, [], events, 1000, new Date('2026-11-22T10:00:00Z'));
    expect(made.approval).toEqual({
      by: 'Leo Leitung <leitung@demo.local>',
      at: new Date('2026-11-21T12:30:00Z'),
    });
    const text = allText(await pdfPages(await renderCertificate(made))).replace(/\s+/g, ' ');
    expect(text).toContain(
      'Freigegeben Leo Leitung <leitung@demo.local>, 21.11.2026 13:30:00 (Europe/Berlin)',
    );
    expect(certificateInput(envelope, [], events.slice(0, 1), 1000, new Date()).approval).toBeNull();
  });

  it('gives times in Berlin local time, summer and winter alike', async () => {
    const text = allText(await pdfPages(await renderCertificate(input())));
    expect(text).toContain('21.11.2026 10:15:03 (Europe/Berlin)'); // created, UTC+1
    expect(text).toContain('01.07.2026 10:15:03 (Europe/Berlin)'); // first signature, UTC+2
    expect(text).toContain('22.11.2026 15:01:58'); // event log
  });

  it('embeds the drawn signature of each signer who drew one', async () => {
    const drawn = input({
      signers: [signer({}), signer({ name: 'Zweite', drawnSignaturePng: png(300, 100) })],
    });
    expect(allImages(await pdfPages(await renderCertificate(drawn)))).toBe(2);
    const typed = input({ signers: [signer({ drawnSignaturePng: null })] });
    expect(allImages(await pdfPages(await renderCertificate(typed)))).toBe(0);
  });

  it('continues on further pages, each numbered, when there are many signers', async () => {
    const signers = Array.from({ length: 8 }, (_, index) =>
      signer({
        name: `Unterzeichner Nummer ${index + 1}`,
        email: `signer${index + 1}@example.com`,
        ip: `192.0.2.${index + 1}`,
        userAgent: `${USER_AGENT} `.repeat(5),
      }),
    );
    const pages = await pdfPages(await renderCertificate(input({ signers })));
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, index) => {
      expect(page.text).toContain(`Seite ${index + 1} von ${pages.length}`);
    });
    const text = allText(pages);
    for (const [index, { name, email }] of signers.entries()) {
      expect(text).toContain(name);
      expect(text).toContain(email);
      expect(text).toContain(`192.0.2.${index + 1}\n`);
    }
    // Long user agents are cut, not spread over the page.
    expect(text.split('…').length - 1).toBe(8);
  });

  it('carries title, creator and the completion as creation date, and renders the same bytes twice', async () => {
    const first = await renderCertificate(input());
    const metadata = await PDFDocument.load(first, { updateMetadata: false });
    expect(metadata.getTitle()).toBe(
      'Abschlusszertifikat – Rahmenvertrag Beratungsleistungen – Elbwerk Logistik AG',
    );
    expect(metadata.getCreator()).toBe('Vertragsgenerator');
    expect(metadata.getCreationDate()).toEqual(new Date('2026-11-22T14:01:59Z'));
    expect(Buffer.from(await renderCertificate(input())).equals(Buffer.from(first))).toBe(true);
  });
});
