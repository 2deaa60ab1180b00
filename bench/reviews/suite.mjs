import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { table } from '../lib/markdown.mjs';
import { importServer, root, serverRequire } from '../lib/server.mjs';
import { ms, summarize } from '../lib/stats.mjs';

/**
 * Negotiation: importing a customer's returned Word file of 30 pages as the server does when they send a
 * round back (reviews/: the file checked and unpacked, its differences to the version sent made tracked
 * changes labelled as theirs, the ids numbered, the suggestions listed), and legal's „Alle annehmen“ on it.
 * Two files: one edited without tracking (compared word by word) and one with Word's own tracked changes
 * (kept and relabelled). The built server's modules (apps/server/dist), in this process.
 */

const FULL = { warmup: 3, rounds: 15 };
const QUICK = { warmup: 1, rounds: 3 };
const BUDGET_MS = 2000;
/** Copies of the Rahmenvertrag's body: about ten pages each, thirty together. */
const COPIES = 3;

export default {
  name: 'reviews',
  title: 'Negotiation: a returned Word file of 30 pages',

  async run({ quick, log }) {
    const settings = quick ? QUICK : FULL;
    const { readReturnedWordFile } = await importServer('reviews/returned-word-file.js');
    const { suggestionsOf } = await importServer('reviews/returned-changes.js');
    const { withUniqueChangeIds, trackedChangesOf, decided } = await importServer(
      'reviews/tracked-changes.js',
    );
    const PizZip = serverRequire('pizzip');
    const sent = thirtyPages(PizZip, await readFile(join(root, 'templates/rahmenvertrag-de.docx')));
    const files = [
      { name: 'edited without tracking', content: editedUntracked(PizZip, sent) },
      { name: "with Word's tracked changes", content: editedTracked(PizZip, sent) },
    ];
    const reviewer = { name: 'Kim Kunde', at: new Date() };
    const results = [];
    for (const file of files) {
      const imports = [];
      const accepts = [];
      let changes = 0;
      let pages = 0;
      for (let round = 0; round < settings.warmup + settings.rounds; round++) {
        const started = performance.now();
        const parts = await readReturnedWordFile('zurueck.docx', file.content);
        const version = withUniqueChangeIds(suggestionsOf(sent, parts, reviewer).content);
        const suggestions = trackedChangesOf(version);
        const imported = performance.now();
        decided(version, new Map(suggestions.map((suggestion) => [suggestion.changeId, 'accepted'])));
        const accepted = performance.now();
        if (round < settings.warmup) continue;
        imports.push(imported - started);
        accepts.push(accepted - imported);
        changes = suggestions.length;
        pages = pageEstimate(PizZip, sent);
      }
      const timing = { import: summarize(imports), accept: summarize(accepts) };
      results.push({ file: file.name, changes, pages, size: file.content.byteLength, ...timing });
      log(
        `${file.name}: ${changes} suggestions, import median ${ms(timing.import.median)} ms, accept all ${ms(timing.accept.median)} ms`,
      );
    }
    return { markdown: report(results, settings) };
  },
};

/** The template's body repeated until the contract has about thirty pages. */
function thirtyPages(PizZip, template) {
  const zip = new PizZip(template);
  const xml = zip.file('word/document.xml').asText();
  const body = xml.slice(xml.indexOf('<w:body>') + '<w:body>'.length, xml.lastIndexOf('<w:sectPr'));
  zip.file('word/document.xml', xml.replace(body, body.repeat(COPIES)));
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** About 40 lines a page, 90 characters a line: what the text would fill in Word. */
function pageEstimate(PizZip, docx) {
  const xml = new PizZip(docx).file('word/document.xml').asText();
  const paragraphs = [...xml.matchAll(/<w:p\b[\s\S]*?<\/w:p>/g)].map((p) =>
    [...p[0].matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''),
  );
  const lines = paragraphs.reduce((sum, text) => sum + Math.max(1, Math.ceil(text.length / 90)), 0);
  return Math.round(lines / 40);
}

/** Every tenth paragraph with a word changed, every 25th removed, and a new one every 30: no tracking. */
function editedUntracked(PizZip, docx) {
  const zip = new PizZip(docx);
  let index = 0;
  const xml = zip
    .file('word/document.xml')
    .asText()
    .replace(/<w:p\b[^>]*>[\s\S]*?<\/w:p>/g, (paragraph) => {
      index++;
      if (index % 25 === 0) return '';
      let changed = paragraph;
      if (index % 10 === 0) changed = changed.replace(/(<w:t(?:\s[^>]*)?>)([^<]{8,}?)( )/, '$1$2 geändert$3');
      if (index % 30 === 0)
        changed += '<w:p><w:r><w:t>Zusatz der Gegenseite zu dieser Stelle.</w:t></w:r></w:p>';
      return changed;
    });
  zip.file('word/document.xml', xml);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A tracked insertion in every twentieth paragraph, as Word writes it with „Änderungen nachverfolgen“. */
function editedTracked(PizZip, docx) {
  const zip = new PizZip(docx);
  let index = 0;
  const xml = zip
    .file('word/document.xml')
    .asText()
    .replace(/<w:p\b[^>]*>[\s\S]*?<\/w:p>/g, (paragraph) => {
      index++;
      if (index % 20 !== 0) return paragraph;
      return paragraph.replace(
        '</w:p>',
        `<w:ins w:id="${90000 + index}" w:author="Kunde" w:date="2027-01-04T10:00:00Z"><w:r><w:t> Ergänzung.</w:t></w:r></w:ins></w:p>`,
      );
    });
  zip.file('word/document.xml', xml);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

function report(results, settings) {
  const worst = Math.max(...results.map((result) => result.import.median));
  return [
    '## Negotiation: a returned Word file of 30 pages',
    '',
    table(
      [
        'returned file',
        'pages (est.)',
        'size',
        'suggestions',
        'import median',
        'import p90',
        '„Alle annehmen“ median',
      ],
      results.map((result) => [
        result.file,
        String(result.pages),
        `${Math.round(result.size / 1024)} KiB`,
        String(result.changes),
        `${ms(result.import.median)} ms`,
        `${ms(result.import.p90)} ms`,
        `${ms(result.accept.median)} ms`,
      ]),
    ),
    '',
    `**Budget: importing a returned Word file of 30 pages ≤ ${BUDGET_MS / 1000} s — ${worst <= BUDGET_MS ? 'met' : '**missed**'}.** (Reported, not asserted.)`,
    '',
    `Method: the Rahmenvertrag's template body repeated ${COPIES} times (about 30 pages), returned once edited ` +
      'without tracking (a word changed in every tenth paragraph, every 25th removed, a paragraph added every 30th) and ' +
      "once with Word's tracked changes; each import is what the server does with the file before it stores the " +
      'version and its suggestions (check and unpack, compare or relabel, number, list); then every suggestion ' +
      `accepted. Median of ${settings.rounds} rounds after ${settings.warmup} of warm-up, in one process.`,
  ].join('\n');
}
