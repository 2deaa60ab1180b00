import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importServer, root } from '../lib/server.mjs';
import { ms, summarize } from '../lib/stats.mjs';
import {
  CONTRACT_MATCH,
  confirmMatch,
  DOCUMENT_EDITABLE,
  DOCUMENT_SHOWN,
  documentEditable,
  EDITOR_CODE_LOADED,
  EDITOR_CODE_REQUESTED,
  FIRST_VIEW_RENDERING,
  openFilledContractForm,
  PHONE,
  SUPERDOC_OPENING,
  signIn,
  startBrowserApp,
  submitForEditor,
  USER,
} from './app.mjs';
import { report } from './report.mjs';
import { sentEnvelope, timeToDocument } from './signing.mjs';

/**
 * What the user waits for in the browser, read from the performance entries the app itself records:
 * apps/web/src/features/match/confirm-timing.ts, features/generation/use-generation.ts and
 * features/editor/editor-timing.ts.
 */
const ENTRIES = {
  confirmToTable: 'match:confirm-to-table',
  submit: 'generation:submit',
  submitToOpen: 'generation:submit-to-open',
  documentShown: DOCUMENT_SHOWN,
  codeRequested: EDITOR_CODE_REQUESTED,
  codeLoaded: EDITOR_CODE_LOADED,
  documentEditable: DOCUMENT_EDITABLE,
};

/**
 * `freshRuns`: first documents of a fresh browser, each signing in anew in a context of its own, and
 * staying `formDwellMs` on the form before submitting it: a person spends seconds there, in which the
 * form page fetches and compiles superdoc for the editor tab.
 */
const FULL = { runs: 20, warmupRounds: 2, freshRuns: 7, formDwellMs: 5000 };
const QUICK = { runs: 3, warmupRounds: 1, freshRuns: 2, formDwellMs: 5000 };

export default {
  name: 'browser',
  title: 'Browser',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const matchIds = JSON.parse(readFileSync(join(root, 'config/demo-matches.json'), 'utf8')).map(
      (match) => match.matchId,
    );
    const app = await startBrowserApp();
    const samples = {
      confirmToTable: [],
      submitToShown: [],
      submitToOpen: [],
      openToShown: [],
      submitToEditable: [],
      submitToCodeRequested: [],
      submitToCodeLoaded: [],
      editorSuperdocOpening: [],
      superdocReadyToEditable: [],
      editorFirstViewRendering: [],
      freshSubmitToShown: [],
      freshOpenToShown: [],
      freshSubmitToEditable: [],
      freshSubmitToCodeRequested: [],
      freshSubmitToCodeLoaded: [],
      freshSuperdocOpening: [],
      freshFirstViewRendering: [],
    };
    /**
     * Whether this machine has LibreOffice, found as the server finds it: then the signing link is
     * measured with it and without.
     */
    const { createPdfRenditions } = await importServer('documents/pdf-rendition.js');
    const libreOffice = await createPdfRenditions().available();
    let signingPage;
    let signingPageWithoutLibreOffice;
    try {
      // Two people, so that the match confirmed on /start is not the one the form works on.
      const startPage = await app.newPage();
      const formPage = await app.newPage();
      await signIn(startPage, USER);
      await signIn(formPage, USER);
      await openFilledContractForm(formPage);
      log(`built app on ${app.baseUrl}, Chromium ${app.chromiumVersion}, signed in as ${USER} twice`);

      // Rounds alternate both flows, so that a busy moment of the machine falls on both alike.
      const rounds = settings.warmupRounds + settings.runs;
      for (let round = 0; round < rounds; round++) {
        const confirmToTable = await timeConfirmation(startPage, matchIds[round % matchIds.length]);
        const opening = await timeOpening(formPage);
        if (round < settings.warmupRounds) continue;
        samples.confirmToTable.push(confirmToTable);
        for (const [key, value] of Object.entries(opening)) samples[key].push(value);
        log(
          `run ${round - settings.warmupRounds + 1} of ${settings.runs}: Bestätigen → table ${ms(confirmToTable)} ms · ` +
            `Dokument erstellen → document shown ${ms(opening.submitToShown)} ms, editable ${ms(opening.submitToEditable)} ms`,
        );
      }

      // What a customer sees first: the signing page from their link, on this server (with LibreOffice
      // where the machine has it) and, where it has, again on a server without it.
      const signing = await timeSigningLink(app, formPage, { rounds, settings, log });
      Object.assign(samples, signing.samples);
      signingPage = signing.signingPage;
      if (libreOffice) {
        const withoutApp = await startBrowserApp({ libreOffice: false });
        try {
          const sender = await withoutApp.newPage();
          await signIn(sender, USER);
          const without = await timeSigningLink(withoutApp, sender, {
            rounds,
            settings,
            log,
            withoutLibreOffice: true,
          });
          for (const [key, values] of Object.entries(without.samples))
            samples[`${key}WithoutLibreOffice`] = values;
          signingPageWithoutLibreOffice = without.signingPage;
        } finally {
          await withoutApp.close();
        }
      }

      // The first document of a fresh browser: a person in a context of their own (empty HTTP cache, no
      // compiled code), signed in and on the form, then the editor tab with superdoc never loaded before.
      for (let run = 0; run < settings.freshRuns; run++) {
        const page = await app.newPage();
        await signIn(page, USER);
        await openFilledContractForm(page);
        await page.waitForTimeout(settings.formDwellMs);
        const opening = await timeOpening(page);
        await page.context().close();
        samples.freshSubmitToShown.push(opening.submitToShown);
        samples.freshOpenToShown.push(opening.openToShown);
        samples.freshSubmitToEditable.push(opening.submitToEditable);
        samples.freshSubmitToCodeRequested.push(opening.submitToCodeRequested);
        samples.freshSubmitToCodeLoaded.push(opening.submitToCodeLoaded);
        samples.freshSuperdocOpening.push(opening.editorSuperdocOpening);
        samples.freshFirstViewRendering.push(opening.editorFirstViewRendering);
        log(
          `fresh browser ${run + 1} of ${settings.freshRuns}: Dokument erstellen → document shown ` +
            `${ms(opening.submitToShown)} ms, editable ${ms(opening.submitToEditable)} ms`,
        );
      }
    } finally {
      await app.close();
    }

    const timing = Object.fromEntries(
      Object.entries(samples).map(([key, values]) => [key, summarize(values)]),
    );
    return {
      markdown: report({
        timing,
        signingPage,
        signingPageWithoutLibreOffice,
        libreOffice,
        machine,
        settings,
        entries: ENTRIES,
        chromiumVersion: app.chromiumVersion,
      }),
    };
  },
};

/**
 * The signing link of a sent envelope, `rounds` times: in a fresh browser and again in the same one, on the
 * desktop and on a phone (PHONE), and the sender's view of it in `senderPage` (signed in). The first
 * `settings.warmupRounds` rounds are not counted.
 */
async function timeSigningLink(app, senderPage, { rounds, settings, log, withoutLibreOffice = false }) {
  const samples = {
    signingFresh: [],
    signingWarm: [],
    phoneSigningFresh: [],
    phoneSigningWarm: [],
    senderViewWarm: [],
  };
  /** What the signing page showed: its document as text in the page, and sideways scrolling on the phone. */
  const signingPage = { visits: 0, textInPage: 0, phoneVisits: 0, phoneTextInPage: 0, phoneSideways: 0 };
  const { id, link } = await sentEnvelope(app.baseUrl, app.dataDir);
  const signer = await app.newPage();
  const phoneSigner = await app.newPage(PHONE);
  const visitFresh = async (device) => {
    const fresh = await app.newPage(device);
    try {
      return await timeToDocument(fresh, link);
    } finally {
      await fresh.context().close();
    }
  };
  const visitAgain = async (page, url) => {
    await page.goto('about:blank');
    return timeToDocument(page, url);
  };
  for (let round = 0; round < rounds; round++) {
    const fresh = await visitFresh();
    const warm = await visitAgain(signer, link);
    const phoneFresh = await visitFresh(PHONE);
    const phoneWarm = await visitAgain(phoneSigner, link);
    const sender = await visitAgain(senderPage, `/signatur/${id}`);
    // Away from the sender view at once: where the server has LibreOffice, it shows the PDF in Chromium's
    // PDF viewer, which would otherwise keep drawing beside the next round's first visit.
    await senderPage.goto('about:blank');
    if (round < settings.warmupRounds) continue;
    samples.signingFresh.push(fresh.shownMs);
    samples.signingWarm.push(warm.shownMs);
    samples.phoneSigningFresh.push(phoneFresh.shownMs);
    samples.phoneSigningWarm.push(phoneWarm.shownMs);
    samples.senderViewWarm.push(sender.shownMs);
    for (const visit of [fresh, warm]) {
      signingPage.visits++;
      if (visit.textInPage) signingPage.textInPage++;
    }
    for (const visit of [phoneFresh, phoneWarm]) {
      signingPage.phoneVisits++;
      if (visit.textInPage) signingPage.phoneTextInPage++;
      if (visit.sidewaysScrolling) signingPage.phoneSideways++;
    }
    log(
      `run ${round - settings.warmupRounds + 1} of ${settings.runs}: signing page fresh ${ms(fresh.shownMs)} ms, ` +
        `warm ${ms(warm.shownMs)} ms · on a phone fresh ${ms(phoneFresh.shownMs)} ms, ` +
        `warm ${ms(phoneWarm.shownMs)} ms · sender view ${ms(sender.shownMs)} ms` +
        (withoutLibreOffice ? ' (server without LibreOffice)' : ''),
    );
  }
  await signer.context().close();
  await phoneSigner.context().close();
  return { samples, signingPage };
}

/** Bestätigen on /start until the app's own measure of the filled table (ms). */
async function timeConfirmation(page, matchId) {
  const before = await entryCount(page, ENTRIES.confirmToTable);
  await confirmMatch(page, matchId);
  await page.waitForFunction(
    ([name, count]) => performance.getEntriesByName(name, 'measure').length > count,
    [ENTRIES.confirmToTable, before],
  );
  return page.evaluate(
    (name) => performance.getEntriesByName(name, 'measure').at(-1).duration,
    ENTRIES.confirmToTable,
  );
}

/**
 * Dokument erstellen until the editor tab shows the document, and until it can edit it. The marks are in
 * two tabs, each relative to its own time origin: `timeOrigin + startTime` puts them on one clock.
 */
async function timeOpening(formPage) {
  const editor = await submitForEditor(formPage);
  try {
    await documentEditable(editor);
    const {
      shownAt,
      codeRequestedAt,
      codeLoadedAt,
      editableAt,
      superdocOpening,
      superdocReadyAt,
      firstViewRendering,
    } = await editor.evaluate(
      ([shown, codeRequested, codeLoaded, editable, opening, rendering]) => {
        const at = (name) => performance.timeOrigin + performance.getEntriesByName(name, 'mark')[0].startTime;
        const superdoc = performance.getEntriesByName(opening, 'measure')[0];
        return {
          shownAt: at(shown),
          codeRequestedAt: at(codeRequested),
          codeLoadedAt: at(codeLoaded),
          editableAt: at(editable),
          superdocOpening: superdoc.duration,
          superdocReadyAt: performance.timeOrigin + superdoc.startTime + superdoc.duration,
          firstViewRendering: performance.getEntriesByName(rendering, 'measure')[0]?.duration,
        };
      },
      [
        ENTRIES.documentShown,
        ENTRIES.codeRequested,
        ENTRIES.codeLoaded,
        ENTRIES.documentEditable,
        SUPERDOC_OPENING,
        FIRST_VIEW_RENDERING,
      ],
    );
    // The first view never rendered (superdoc was first): the benchmark measures something else then.
    if (firstViewRendering === undefined) throw new Error('the editor tab showed no first view');
    const heading = await editor.getByRole('heading', { level: 1 }).textContent();
    if (!heading?.startsWith(CONTRACT_MATCH)) throw new Error(`the editor tab shows "${heading}"`);
    const form = await formPage.evaluate(({ submit, submitToOpen }) => {
      const mark = performance.getEntriesByName(submit, 'mark').at(-1);
      return {
        submittedAt: performance.timeOrigin + mark.startTime,
        submitToOpen: performance.getEntriesByName(submitToOpen, 'measure').at(-1).duration,
      };
    }, ENTRIES);
    const submitToShown = shownAt - form.submittedAt;
    return {
      submitToShown,
      submitToEditable: editableAt - form.submittedAt,
      submitToCodeRequested: codeRequestedAt - form.submittedAt,
      submitToCodeLoaded: codeLoadedAt - form.submittedAt,
      submitToOpen: form.submitToOpen,
      openToShown: submitToShown - form.submitToOpen,
      editorSuperdocOpening: superdocOpening,
      superdocReadyToEditable: editableAt - superdocReadyAt,
      editorFirstViewRendering: firstViewRendering,
    };
  } finally {
    await editor.close();
  }
}

function entryCount(page, name) {
  return page.evaluate((entry) => performance.getEntriesByName(entry, 'measure').length, name);
}
