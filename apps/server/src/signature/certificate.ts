import { COMPANY_SEAL_STATEMENT, formatByteSize, formatDateTime } from '@vertragsgenerator/domain';
import { PDFDocument } from 'pdf-lib';
import {
  ACCENT,
  CONTENT_BOTTOM,
  CONTENT_WIDTH,
  drawRows,
  embedFonts,
  type Fonts,
  heading,
  LABEL_WIDTH,
  Layout,
  lineHeight,
  MARGIN,
  MUTED,
  PAGE_WIDTH,
  RULE,
  row,
  rowHeight,
  SIGNATURE_BOX,
  section,
  TEXT,
  type TextStyle,
  wrap,
} from './certificate-layout.js';

/**
 * Everything the completion certificate of a built-in envelope proves: which document (by SHA-256)
 * was signed by whom, when, from where, and the envelope's history. Texts are shown as given.
 */
export interface CertificateInput {
  envelopeId: string;
  subject: string;
  matchId: string;
  docKey: string;
  document: { fileName: string; sha256: string; size: number };
  sender: { name: string; email: string };
  createdAt: Date;
  completedAt: Date;
  /**
   * Sent without the company's countersignatory (where an administrator allows it): the server's seal
   * stands for the company. Absent: countersigned, or an envelope from before countersigning.
   */
  companySealOnly?: boolean;
  /** Freigabe: who approved the envelope before it was sent, and when; absent when it needed none. */
  approval?: { by: string; at: Date } | null;
  /** In routing order; the company's countersignatory last, or first where its template says so. */
  signers: CertificateSigner[];
  /** CC recipients. */
  copies: { name: string; email: string }[];
  /** In chronological order. */
  events: CertificateEvent[];
  /** The rounds of the negotiation with the counterparty before signing, each version with its SHA-256. */
  negotiation?: CertificateRound[];
}

export interface CertificateRound {
  number: number;
  sent: { at: Date; version: number; sha256: string };
  /** Null: sent back without changes, or not sent back. */
  returned: { at: Date; by: string; version: number | null; sha256: string | null } | null;
}

export interface CertificateSigner {
  /** German label of the recipient's role, e.g. `Kunde`. */
  role: string;
  name: string;
  /** The countersignatory's function for the company (config/signatories.json); null for the others. */
  function?: string | null;
  email: string;
  typedName: string;
  signedAt: Date;
  ip: string | null;
  userAgent: string | null;
  /** The signature drawn on the signing page, if the signer drew one. */
  drawnSignaturePng: Uint8Array | null;
  /** The code the signer confirmed before the document opened; null: none was asked (SIGNING_OTP). */
  verification: { email: string; at: Date; ip: string | null } | null;
}

export interface CertificateEvent {
  at: Date;
  /** German, e.g. `Unterschrieben`. */
  label: string;
  actor: string;
  ip: string | null;
}

/** A user agent can be arbitrarily long; three lines identify browser and system. */
const USER_AGENT_LINES = 3;

const NOT_RECORDED = 'nicht erfasst';
/** The signing page shows the document's SHA-256 beside the signing form. */
const SHA_SHOWN = 'jedem Unterzeichner auf der Seite zum Unterschreiben, vor seiner Unterschrift';
const FOOTER_NOTE =
  'Der SHA-256-Hashwert identifiziert das unterzeichnete Dokument eindeutig: ' +
  'Jede Änderung am Dokument ergibt einen anderen Wert.';

/** German local time with the zone named, which spares saying MEZ or MESZ. */
const withZone = (date: Date) => `${formatDateTime(date, { seconds: true })} (Europe/Berlin)`;

/** The exact size, which the document's hash covers, and the rounded one people read. */
function fileSize(bytes: number): string {
  const exact = `${new Intl.NumberFormat('de-DE').format(bytes)} Bytes`;
  return bytes < 1024 ? exact : `${exact} (${formatByteSize(bytes)})`;
}

/** Renders the German completion certificate ("Abschlusszertifikat") of an envelope as A4 PDF. */
export async function renderCertificate(input: CertificateInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const fonts = await embedFonts(pdf);
  const layout = new Layout(pdf, fonts);

  drawTitle(layout, input);
  section(layout, 'Umschlag', [
    row(fonts, 'Umschlag-ID', input.envelopeId),
    row(fonts, 'Betreff', input.subject),
    row(fonts, 'Match-ID', input.matchId),
    row(fonts, 'Dokumentschlüssel', input.docKey),
    row(fonts, 'Absender', `${input.sender.name} <${input.sender.email}>`),
    row(fonts, 'Erstellt am', withZone(input.createdAt)),
    ...(input.approval
      ? [row(fonts, 'Freigegeben', `${input.approval.by}, ${withZone(input.approval.at)}`)]
      : []),
    row(fonts, 'Abgeschlossen am', withZone(input.completedAt)),
  ]);
  section(layout, 'Dokument', [
    row(fonts, 'Dateiname', input.document.fileName),
    row(fonts, 'Größe', fileSize(input.document.size)),
    row(fonts, 'SHA-256', input.document.sha256, { style: { font: fonts.mono, size: 8.5 } }),
    row(fonts, 'Angezeigt', SHA_SHOWN),
  ]);
  if (input.negotiation?.length) drawNegotiation(layout, fonts, input.negotiation);

  heading(layout, `Unterzeichner (${input.signers.length})`);
  for (const [index, signer] of input.signers.entries()) {
    await drawSigner(layout, pdf, signer, `${index + 1}. ${signer.role}`);
  }
  if (input.companySealOnly) drawCompanySeal(layout);

  heading(layout, 'Kopie erhalten (CC)');
  const copies = input.copies.length
    ? input.copies.map((copy) => `${copy.name} <${copy.email}>`)
    : ['Keine Kopieempfänger.'];
  for (const copy of copies) {
    const style = { font: fonts.regular, size: 9.5 };
    const lines = wrap(copy, style, CONTENT_WIDTH);
    layout.reserve(lines.length * lineHeight(style));
    layout.lines(lines, MARGIN, style);
  }

  drawEvents(layout, input.events);
  drawFooters(pdf, fonts);

  pdf.setTitle(`Abschlusszertifikat – ${input.subject}`, { showInWindowTitleBar: true });
  pdf.setSubject(`Umschlag ${input.envelopeId}`);
  pdf.setCreator('Vertragsgenerator');
  pdf.setLanguage('de-DE');
  // The certificate states the envelope as completed; dating it by completion (not by the moment it
  // is rendered) makes every rendering of the same envelope the same file.
  pdf.setCreationDate(input.completedAt);
  pdf.setModificationDate(input.completedAt);
  return pdf.save();
}

function drawTitle(layout: Layout, input: CertificateInput): void {
  const { fonts } = layout;
  layout.line('VERTRAGSGENERATOR · ELEKTRONISCHE SIGNATUR', MARGIN, layout.y, {
    font: fonts.bold,
    size: 8,
    color: ACCENT,
  });
  layout.y -= 20;
  layout.lines(['Abschlusszertifikat'], MARGIN, { font: fonts.bold, size: 22 });
  layout.y -= 4;
  const intro = {
    font: fonts.regular,
    size: 9.5,
    color: MUTED,
  };
  layout.lines(
    wrap(
      `Dieses Zertifikat belegt den Abschluss des Umschlags „${input.subject}“: ` +
        'alle Unterzeichner haben das unten bezeichnete Dokument elektronisch unterschrieben.',
      intro,
      CONTENT_WIDTH,
    ),
    MARGIN,
    intro,
  );
  layout.y -= 6;
}

const BLOCK_PADDING = 10;

/** How the signer proved to hold the mailbox the envelope names, beside their signature. */
function identity(verification: CertificateSigner['verification']): string {
  if (!verification) return 'Kein E-Mail-Code verlangt';
  return (
    `Identität bestätigt per E-Mail-Code an ${verification.email} am ${withZone(verification.at)}` +
    ` von IP ${verification.ip ?? NOT_RECORDED}`
  );
}

async function drawSigner(layout: Layout, pdf: PDFDocument, signer: CertificateSigner, title: string) {
  const { fonts } = layout;
  const x = MARGIN + BLOCK_PADDING;
  const valueWidth = CONTENT_WIDTH - 2 * BLOCK_PADDING - LABEL_WIDTH;
  const titleStyle = { font: fonts.bold, size: 10.5 };
  // Capped values keep a block shorter than a page, so that it can always be kept together.
  const titleLines = wrap(title, titleStyle, CONTENT_WIDTH - 2 * BLOCK_PADDING, 2);
  const value = { width: valueWidth, maxLines: 4 };
  const rows = [
    row(fonts, 'Name', signer.name, value),
    ...(signer.function ? [row(fonts, 'Funktion', signer.function, value)] : []),
    row(fonts, 'E-Mail', signer.email, value),
    row(fonts, 'Getippter Name', signer.typedName, value),
    row(fonts, 'Identität', identity(signer.verification), value),
    row(fonts, 'Unterschrieben am', withZone(signer.signedAt), value),
    row(fonts, 'IP-Adresse', signer.ip ?? NOT_RECORDED, value),
    row(fonts, 'User-Agent', signer.userAgent ?? NOT_RECORDED, {
      style: { font: fonts.regular, size: 8, color: MUTED },
      width: valueWidth,
      maxLines: USER_AGENT_LINES,
    }),
  ];
  const signature = signer.drawnSignaturePng ? await pdf.embedPng(signer.drawnSignaturePng) : null;
  const signatureHeight = signature ? SIGNATURE_BOX.height + 4 : lineHeight({ font: fonts.regular, size: 9 });
  const height =
    2 * BLOCK_PADDING +
    titleLines.length * lineHeight(titleStyle) +
    6 +
    rows.reduce((sum, r) => sum + rowHeight(r), 0) +
    signatureHeight;

  layout.reserve(height + 8);
  const top = layout.y;
  layout.rectangle(MARGIN, top, CONTENT_WIDTH, height, 'frame');
  layout.y -= BLOCK_PADDING;
  layout.lines(titleLines, x, titleStyle);
  layout.y -= 6;
  drawRows(layout, rows, x);
  const label = { font: fonts.regular, size: 9, color: MUTED };
  if (signature) {
    layout.line('Unterschrift', x, layout.y, label);
    layout.image(signature, x + LABEL_WIDTH, layout.y);
    layout.y -= SIGNATURE_BOX.height;
    layout.rule(x + LABEL_WIDTH, SIGNATURE_BOX.width);
    layout.y -= 4;
  } else {
    layout.line('Unterschrift', x, layout.y, label);
    layout.lines(['Keine gezeichnete Unterschrift (getippter Name)'], x + LABEL_WIDTH, {
      ...label,
      color: TEXT,
    });
  }
  layout.y = top - height - 8;
}

/** The company's line where nobody countersigned: the seal stands for it. */
function drawCompanySeal(layout: Layout): void {
  const { fonts } = layout;
  const statement = { font: fonts.bold, size: 10.5 };
  const note = { font: fonts.regular, size: 9.5, color: MUTED };
  const noteLines = wrap(
    'Ohne Gegenzeichnung versendet: Das elektronische Siegel dieses Dokuments steht für die Firma.',
    note,
    CONTENT_WIDTH,
  );
  layout.reserve(lineHeight(statement) + noteLines.length * lineHeight(note) + 8);
  layout.lines([COMPANY_SEAL_STATEMENT], MARGIN, statement);
  layout.lines(noteLines, MARGIN, note);
  layout.y -= 8;
}

const COLUMNS = [
  { title: 'Zeitpunkt (Europe/Berlin)', width: 104 },
  { title: 'Ereignis', width: 120 },
  { title: 'Akteur', width: CONTENT_WIDTH - 104 - 120 - 92 },
  { title: 'IP-Adresse', width: 92 },
];
const CELL_PADDING = 4;

function drawEvents(layout: Layout, events: CertificateEvent[]): void {
  const { fonts } = layout;
  const cell = { font: fonts.regular, size: 8.5 };
  const head = { font: fonts.bold, size: 8.5 };
  const wrapRow = (values: string[], style: TextStyle) =>
    COLUMNS.map((column, index) => wrap(values[index] ?? '', style, column.width - 2 * CELL_PADDING));
  const heightOf = (cells: string[][], style: TextStyle) =>
    Math.max(...cells.map((lines) => lines.length)) * lineHeight(style) + 2 * CELL_PADDING;

  const drawRow = (cells: string[][], style: TextStyle, shaded: boolean) => {
    const height = heightOf(cells, style);
    if (shaded) layout.rectangle(MARGIN, layout.y, CONTENT_WIDTH, height, 'shade');
    const top = layout.y - CELL_PADDING;
    let x = MARGIN;
    for (const [index, column] of COLUMNS.entries()) {
      (cells[index] ?? []).forEach((line, n) => {
        layout.line(line, x + CELL_PADDING, top - n * lineHeight(style), style);
      });
      x += column.width;
    }
    layout.y -= height;
    layout.rule(MARGIN, CONTENT_WIDTH);
  };
  const header = wrapRow(
    COLUMNS.map((column) => column.title),
    head,
  );
  const rows = events.map((event) =>
    wrapRow([formatDateTime(event.at, { seconds: true }), event.label, event.actor, event.ip ?? '–'], cell),
  );

  heading(layout, 'Ereignisprotokoll', heightOf(header, head) + (rows[0] ? heightOf(rows[0], cell) : 20));
  if (rows.length === 0) {
    layout.lines(['Keine Ereignisse aufgezeichnet.'], MARGIN, cell);
    return;
  }
  drawRow(header, head, true);
  for (const cells of rows) {
    if (layout.y - heightOf(cells, cell) < CONTENT_BOTTOM) {
      // A table continued on the next page repeats its header so that the columns stay legible.
      layout.newPage();
      drawRow(header, head, true);
    }
    drawRow(cells, cell, false);
  }
}

/** Page numbers are known only once all content is laid out, so footers are drawn last. */
function drawFooters(pdf: PDFDocument, fonts: Fonts): void {
  const pages = pdf.getPages();
  const style = { font: fonts.regular, size: 7.5, color: MUTED };
  const numberWidth = 70;
  const note = wrap(FOOTER_NOTE, style, CONTENT_WIDTH - numberWidth - 10);
  for (const [index, page] of pages.entries()) {
    const top = CONTENT_BOTTOM - 22;
    page.drawLine({
      start: { x: MARGIN, y: top + 6 },
      end: { x: PAGE_WIDTH - MARGIN, y: top + 6 },
      thickness: 0.6,
      color: RULE,
    });
    note.forEach((line, n) => {
      page.drawText(line, { x: MARGIN, y: top - style.size - n * lineHeight(style), ...style });
    });
    const number = `Seite ${index + 1} von ${pages.length}`;
    page.drawText(number, {
      x: PAGE_WIDTH - MARGIN - fonts.regular.widthOfTextAtSize(number, style.size),
      y: top - style.size,
      ...style,
    });
  }
}

/** The rounds with the counterparty: which version went out and which came back, each with its SHA-256. */
function drawNegotiation(layout: Layout, fonts: Fonts, rounds: CertificateRound[]): void {
  const hash = (sha256: string) => row(fonts, 'SHA-256', sha256, { style: { font: fonts.mono, size: 8.5 } });
  section(
    layout,
    `Verhandlung (${rounds.length} ${rounds.length === 1 ? 'Runde' : 'Runden'})`,
    rounds.flatMap((round) => [
      row(
        fonts,
        `Runde ${round.number} gesendet`,
        `Version ${round.sent.version}, ${withZone(round.sent.at)}`,
      ),
      hash(round.sent.sha256),
      ...(round.returned
        ? [
            row(
              fonts,
              `Runde ${round.number} zurück`,
              `${round.returned.by}, ${withZone(round.returned.at)}${round.returned.version === null ? ', ohne Änderungen' : `, Version ${round.returned.version}`}`,
            ),
            ...(round.returned.sha256 ? [hash(round.returned.sha256)] : []),
          ]
        : []),
    ]),
  );
}
