import { describeMachine } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { ms } from '../lib/stats.mjs';
import { CONTRACT_MATCH, EDITOR_CODE_LOADED, FIRST_VIEW_RENDERING, PHONE, SUPERDOC_OPENING } from './app.mjs';
import { VIEWER_SHOWN } from './signing.mjs';

/**
 * Absolute times move with the machine; the editor's budgets beyond „shown“ are therefore relations within
 * the run: superdoc's own opening of the contract is a floor the app does not control, so editing may
 * take that, after the document shows, plus EDITABLE_MARGIN_MS; and superdoc's code, fetched and compiled
 * while the form is open, is loaded by the time the document shows.
 */
const BUDGET = {
  confirmToTableMs: 300,
  signingFreshMs: 1500,
  editorShownWarmMs: 500,
  editorShownFreshMs: 1500,
  editableMarginMs: 300,
};

const verdict = (met) => (met ? 'met' : '**missed**');

/**
 * Where the wait for an editable document goes: superdoc's code loads while the tab checks the sign-in,
 * fetches the file and shows it in its first view; then superdoc opens the document itself.
 */
function whereEditingWaits(timing) {
  const opening = timing.editorSuperdocOpening.median;
  return (
    `The document shows in its first view (docx-preview, \`${FIRST_VIEW_RENDERING}\` ` +
    `${ms(timing.editorFirstViewRendering.median)} ms median) while superdoc loads; editing waits for superdoc: ` +
    `${ms(timing.submitToEditable.median)} ms after Dokument erstellen with a warm cache ` +
    `(${ms(timing.freshSubmitToEditable.median)} ms in a fresh browser). Of it, superdoc's code has loaded ` +
    `(\`${EDITOR_CODE_LOADED}\`: fetched, compiled, run) ${ms(timing.submitToCodeLoaded.median)} ms after ` +
    `Dokument erstellen (${ms(timing.freshSubmitToCodeLoaded.median)} ms fresh); superdoc's own opening of the ` +
    `contract (\`${SUPERDOC_OPENING}\`, from handing it the file until it shows it) takes ${ms(opening)} ms, ` +
    `and the page then swaps the first view for superdoc in ${ms(timing.superdocReadyToEditable.median)} ms.`
  );
}

function signingPageFacts(signingPage) {
  return (
    `The signing page showed the contract's text in the page in ${signingPage.textInPage} of ` +
    `${signingPage.visits} visits on the desktop and ${signingPage.phoneTextInPage} of ` +
    `${signingPage.phoneVisits} on the phone (otherwise a PDF in a frame); on the phone, the page scrolled ` +
    `sideways in ${signingPage.phoneSideways} of ${signingPage.phoneVisits} visits.`
  );
}

/**
 * The signing budget holds on a server with LibreOffice and on one without: the page shows the contract's
 * text first and a PDF rendition only when it is ready, so the rendition never holds the text back.
 */
function signingBudget(timing, libreOffice) {
  const fresh = (key) => timing[key].median <= BUDGET.signingFreshMs;
  const met = fresh('signingFresh') && (!libreOffice || fresh('signingFreshWithoutLibreOffice'));
  const figures = (suffix) =>
    `median ${ms(timing[`signingFresh${suffix}`].median)} ms, p90 ${ms(timing[`signingFresh${suffix}`].p90)} ms; ` +
    `on a phone ${ms(timing[`phoneSigningFresh${suffix}`].median)} ms`;
  return (
    `**Budget: the signing page to its document in a fresh browser ≤ ${BUDGET.signingFreshMs} ms median, with ` +
    `LibreOffice on the server and without — ${verdict(met)}** ` +
    (libreOffice
      ? `(with LibreOffice: ${figures('')}; without: ${figures('WithoutLibreOffice')}).`
      : `(${figures('')}; LibreOffice is not installed on this machine, so only without it).`)
  );
}

export function report({
  timing,
  signingPage,
  signingPageWithoutLibreOffice,
  libreOffice,
  machine,
  settings,
  entries,
  chromiumVersion,
}) {
  const confirm = timing.confirmToTable;
  const shownMet =
    timing.submitToShown.median <= BUDGET.editorShownWarmMs &&
    timing.freshSubmitToShown.median <= BUDGET.editorShownFreshMs;
  // Warm and fresh, each against its own run's parts.
  const editableLimit = (shown, opening) => shown.median + opening.median + BUDGET.editableMarginMs;
  const editableWarmLimit = editableLimit(timing.submitToShown, timing.editorSuperdocOpening);
  const editableFreshLimit = editableLimit(timing.freshSubmitToShown, timing.freshSuperdocOpening);
  const editableMet =
    timing.submitToEditable.median <= editableWarmLimit &&
    timing.freshSubmitToEditable.median <= editableFreshLimit;
  const codeLoadedMet =
    timing.submitToCodeLoaded.median <= timing.submitToShown.median &&
    timing.freshSubmitToCodeLoaded.median <= timing.freshSubmitToShown.median;
  const row = (label, t) => [label, `${ms(t.median)} ms`, `${ms(t.p10)} – ${ms(t.p90)} ms`, String(t.n)];
  const phone = `${PHONE.viewport.width} × ${PHONE.viewport.height}`;
  return [
    '## Browser: what the user waits for',
    '',
    `Measured ${describeMachine(machine)}. Chromium ${chromiumVersion} (headless, Debian's package), the ` +
      'built server and the built SPA on loopback, all on the same cores as this benchmark.',
    '',
    `**Budget: Bestätigen → filled info table ≤ ${BUDGET.confirmToTableMs} ms median — ` +
      `${verdict(confirm.median <= BUDGET.confirmToTableMs)}** (median ${ms(confirm.median)} ms, p90 ${ms(confirm.p90)} ms).`,
    '',
    `**Budget: Dokument erstellen → document shown in the editor tab ≤ ${BUDGET.editorShownWarmMs} ms median ` +
      `with a warm cache, ≤ ${BUDGET.editorShownFreshMs} ms in a fresh browser — ${verdict(shownMet)}** ` +
      `(median ${ms(timing.submitToShown.median)} ms, fresh ${ms(timing.freshSubmitToShown.median)} ms).`,
    '',
    "**Budget: superdoc's code loaded (fetched, compiled, run) by the time the document shows in the editor tab, " +
      `warm and in a fresh browser — ${verdict(codeLoadedMet)}** (loaded ${ms(timing.submitToCodeLoaded.median)} ms ` +
      `after Dokument erstellen, shown ${ms(timing.submitToShown.median)} ms; fresh ` +
      `${ms(timing.freshSubmitToCodeLoaded.median)} ms and ${ms(timing.freshSubmitToShown.median)} ms).`,
    '',
    `**Budget: Dokument erstellen → document editable ≤ shown + superdoc's own opening + ${BUDGET.editableMarginMs} ms, ` +
      `warm and in a fresh browser — ${verdict(editableMet)}** (median ${ms(timing.submitToEditable.median)} ms ` +
      `against ${ms(editableWarmLimit)} ms; fresh ${ms(timing.freshSubmitToEditable.median)} ms against ` +
      `${ms(editableFreshLimit)} ms).`,
    '',
    signingBudget(timing, libreOffice),
    '',
    table(
      ['step', 'median', 'p10 – p90', 'runs'],
      [
        row('Bestätigen → filled info table', confirm),
        row('Dokument erstellen → document shown in the editor tab (its first view)', timing.submitToShown),
        row('… of it: submit → editor tab opened (request, rendering, hand-over)', timing.submitToOpen),
        row(
          '… of it: editor tab opened → document shown (SPA, sign-in check, file, first view)',
          timing.openToShown,
        ),
        row('… of that: the first view rendering the document', timing.editorFirstViewRendering),
        row('Dokument erstellen → document editable in superdoc', timing.submitToEditable),
        row(
          '… of it: Dokument erstellen → superdoc’s code loaded in the editor tab',
          timing.submitToCodeLoaded,
        ),
        row('… of that: Dokument erstellen → the editor tab asks for it', timing.submitToCodeRequested),
        row(
          '… of it: superdoc opening the document (its DOCX import, editor state, page layout)',
          timing.editorSuperdocOpening,
        ),
        row('… of it: superdoc ready → editable (the first view replaced)', timing.superdocReadyToEditable),
        row(
          'Dokument erstellen → document shown, the first document of a fresh browser',
          timing.freshSubmitToShown,
        ),
        row('… of it: editor tab opened → document shown', timing.freshOpenToShown),
        row('… of that: the first view rendering the document', timing.freshFirstViewRendering),
        row(
          'Dokument erstellen → document editable, the first document of a fresh browser',
          timing.freshSubmitToEditable,
        ),
        row('… of it: Dokument erstellen → superdoc’s code loaded', timing.freshSubmitToCodeLoaded),
        row('… of that: Dokument erstellen → the editor tab asks for it', timing.freshSubmitToCodeRequested),
        row('… of it: superdoc opening the document', timing.freshSuperdocOpening),
        row(
          'Signing link opened in a fresh browser → contract shown (a customer’s first visit)',
          timing.signingFresh,
        ),
        row('Signing link opened again in the same browser → contract shown', timing.signingWarm),
        row(
          `The same on a phone (${phone}, touch), fresh browser → contract shown`,
          timing.phoneSigningFresh,
        ),
        row('… on the phone, opened again → contract shown', timing.phoneSigningWarm),
        ...(libreOffice
          ? [
              row(
                'Signing link, fresh browser, on a server without LibreOffice',
                timing.signingFreshWithoutLibreOffice,
              ),
              row('… opened again in the same browser', timing.signingWarmWithoutLibreOffice),
              row('… on the phone, fresh browser', timing.phoneSigningFreshWithoutLibreOffice),
              row('… on the phone, opened again', timing.phoneSigningWarmWithoutLibreOffice),
              row('… the sender view (the DOCX as text, no PDF)', timing.senderViewWarmWithoutLibreOffice),
            ]
          : []),
        row(
          'Sender view of the sent envelope opened → document shown (signed in, warm cache)',
          timing.senderViewWarm,
        ),
      ],
    ),
    '',
    whereEditingWaits(timing),
    '',
    `${libreOffice ? 'With LibreOffice on the server: ' : ''}${signingPageFacts(signingPage)}` +
      (signingPageWithoutLibreOffice
        ? ` Without it: ${signingPageFacts(signingPageWithoutLibreOffice)}`
        : ''),
    '',
    '### How measured',
    '',
    'The figures are the app’s own performance entries, not the benchmark’s clock: ' +
      `\`${entries.confirmToTable}\` runs from the submit of the Match-ID form to the committed table of ` +
      `that match (features/match/confirm-timing.ts); \`${entries.submit}\` is marked when a form starts ` +
      `generating, \`${entries.submitToOpen}\` ends when the editor tab is opened ` +
      `(features/generation/use-generation.ts), and the new tab marks \`${entries.documentShown}\` once ` +
      'the document shows — in its first view, or in superdoc if that is first —, ' +
      `\`${entries.codeRequested}\` when it asks for the editor's code with superdoc, ` +
      `\`${entries.codeLoaded}\` once that has loaded, and ` +
      `\`${entries.documentEditable}\` once superdoc is ready to edit it (features/editor/editor-timing.ts); the two ` +
      'tabs are compared as `performance.timeOrigin + startTime`. Two signed-in browser contexts of ' +
      `legal: one confirms the demo matches on /start in turn, the other submits the German framework ` +
      `contract of ${CONTRACT_MATCH} on /contract/docx again and again, each opening a new tab that is ` +
      `closed afterwards. Each round runs both once; ${settings.warmupRounds} warm-up round(s), then ` +
      `${settings.runs} measured; medians with p10 – p90 (the medians of the parts need not add up ` +
      'to the median of the whole). The first document of a fresh browser: after those rounds, ' +
      `${settings.freshRuns} times a new browser context (empty HTTP cache, nothing compiled) signs in, ` +
      `opens the same form, stays on it for ${settings.formDwellMs / 1000} s as a person filling it would, and ` +
      'submits it once (the form page loads superdoc once the browser is idle, ' +
      'features/forms/preload-editor.ts). The signing page and the sender view mark ' +
      `\`${VIEWER_SHOWN}\` when their document shows (components/document-viewer/viewer-timing.ts), timed ` +
      'from the navigation to the page until that mark with the contract’s text in the page’s document ' +
      `(“Referenz: ${CONTRACT_MATCH}”; a PDF in a frame counts without it), whatever renders it — no ` +
      'renderer is waited for beyond that: ' +
      'a project partner contract sent through the API, its link from the mail the embedded mailer wrote, ' +
      'opened once per round in a new browser context (empty cache), once again in one that has been ' +
      `there, both again on a phone (Chromium's mobile emulation: ${phone} CSS pixels, touch, device scale ` +
      `factor ${PHONE.deviceScaleFactor}; the machine's CPU and network), and the sender view by the ` +
      'signed-in sender. The server looks LibreOffice up on its PATH (documents/pdf-rendition.ts); where this ' +
      'machine has it, the signing link is measured again on a second server whose PATH holds only ' +
      'Node’s folder, as on a server without LibreOffice.',
  ].join('\n');
}
