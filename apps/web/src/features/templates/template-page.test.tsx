import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PATHS } from '@/lib/paths';
import { chooseInDialog, readText, savedAfterChoice } from '@/test/files';
import { type ApiAnswer, jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import {
  bodyRows,
  expectNotPublishable,
  expectStalePublicationRefused,
  publishWithComment,
  stalePublication,
  versionRows,
} from '@/test/version-library';
import { TemplatePage } from './template-page';
import {
  cleanDraft,
  comparison,
  offerWithCleanDraft,
  offerWithDrafts,
  publishedVersion,
  trial,
} from './test-fixtures';

const BASE = '/backend/templates/angebot-de.docx';
const routes = [{ path: PATHS.template, Component: TemplatePage }];
/** Mantine's file input is a button in front of a hidden native input: the file goes to that. */
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const open = (search = '') => renderRoutes(routes, `/vorlagen/angebot-de${search}`);
const UNREADABLE = 'Die Datei konnte nicht gelesen werden. Wähle sie bitte noch einmal aus.';
const upload = () => userEvent.click(screen.getByRole('button', { name: 'Hochladen und prüfen' }));
const docx = (text: string) => new File([text], 'angebot-de.docx');
const refused = jsonResponse(422, { error: 'not_docx', message: 'Die Datei enthält Makros (.docm).' });
const chooseFile = (file: File) => chooseInDialog(fileInput(), file);
/** No version has marked paragraphs: version-marks.test.tsx looks at those. */
const unmarked = Object.fromEntries(
  [1, 2, 3].map((version) => [
    `GET ${BASE}/versions/${version}/marks`,
    jsonResponse(200, { paragraphs: [], marks: [] }),
  ]),
);

/** The template with a draft that has a problem and, once a version was uploaded, the clean draft 3. */
function stubUploads(uploads: ApiAnswer | ApiAnswer[]) {
  return stubApi({
    ...unmarked,
    [`GET ${BASE}`]: [jsonResponse(200, offerWithDrafts), jsonResponse(200, offerWithCleanDraft)],
    [`GET ${BASE}/versions/2/comparison`]: jsonResponse(200, comparison),
    [`GET ${BASE}/versions/3/comparison`]: jsonResponse(200, comparison),
    [`GET ${BASE}/versions/3/trial`]: jsonResponse(200, trial),
    [`POST ${BASE}/versions`]: uploads,
  });
}

/** The texts of the files the uploads sent. */
function uploadedTexts(api: ReturnType<typeof stubApi>): Promise<string[]> {
  const bodies = api.fetchMock.mock.calls
    .filter(([input, init]) => init?.method === 'POST' && String(input).startsWith(`${BASE}/versions?`))
    .map(([, init]) => readText(init?.body as Blob));
  return Promise.all(bodies);
}

describe('TemplatePage', () => {
  it('opens the newest draft and names its misspelt placeholder with place and suggestion; it cannot be published', async () => {
    stubApi({
      ...unmarked,
      [`GET ${BASE}`]: jsonResponse(200, offerWithDrafts),
      [`GET ${BASE}/versions/2/comparison`]: jsonResponse(200, { ...comparison, version: 2 }),
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Version 2' })).toBeInTheDocument();
    const rows = versionRows();
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Entwurf1 Problem',
      'veröffentlicht',
    ]);
    expect(rows[0]).toHaveAttribute('aria-current', 'true');
    const problems = screen.getByRole('alert');
    expect(problems).toHaveTextContent('Ein Problem – so kann die Version nicht veröffentlicht werden');
    expect(problems).toHaveTextContent(
      'Haupttext: {angebotStundensaz} – Unbekannter Platzhalter: nicht im Feldverzeichnis (docs/templates.md). Gemeint: {angebotStundensatz}?',
    );
    expectNotPublishable();
    // A version with problems is not tried: it would not render.
    expect(screen.queryByRole('heading', { name: 'An einem Match ausprobieren' })).not.toBeInTheDocument();
  });

  it('shows what changed, tries the version on a deal, and publishes it with a comment', async () => {
    const published = {
      ...offerWithCleanDraft,
      publishedVersion: 3,
      versions: [
        {
          ...cleanDraft,
          status: 'veröffentlicht',
          publishedBy: 'legal@demo.local',
          publishedAt: '2026-11-26T10:00:00Z',
        },
        ...offerWithCleanDraft.versions.slice(1, 2),
        { ...publishedVersion, status: 'ersetzt' },
      ],
    };
    const api = stubApi({
      ...unmarked,
      [`GET ${BASE}`]: jsonResponse(200, offerWithCleanDraft),
      [`GET ${BASE}/versions/3/comparison`]: jsonResponse(200, comparison),
      [`GET ${BASE}/versions/3/trial`]: jsonResponse(200, trial),
      [`POST ${BASE}/versions/3/publish`]: jsonResponse(200, published),
    });
    open();
    expect(
      await screen.findByText(
        'Keine Probleme gefunden: Platzhalter, Abschnitte und Unterschriftsanker passen.',
      ),
    ).toBeInTheDocument();

    const changes = await screen.findByRole('region', { name: 'Was sich ändert' });
    expect(changes).toHaveTextContent('… 2 unveränderte Absätze …');
    expect(within(changes).getByText('vier').closest('del')).toHaveTextContent('gestrichen: vier');
    expect(within(changes).getByText('sechs').closest('ins')).toHaveTextContent('eingefügt: sechs');
    expect(changes).toHaveTextContent('eingefügt: Neuer Absatz zur Verfügbarkeit.');
    expect(
      screen.getByText(
        'Der Text dieser Version gegenüber der veröffentlichten Version 1, Absatz für Absatz.',
      ),
    ).toBeInTheDocument();

    const tried = await screen.findByRole('table', { name: 'Mit PL-10001:' });
    const [first, second] = bodyRows(tried);
    expect(first).toHaveTextContent(
      'angebot-wmPL-10001 Angebot Elbwerk Logistik AG.docxeinsatzort (Einsatzort)' +
        'Haftung: Schweiz (Regel „land = CH“ trifft zu)Schweizer Recht: weggelassen (Keine Regel trifft zu)',
    );
    expect(within(tried).getByRole('columnheader', { name: 'Klauseln' })).toBeInTheDocument();
    expect(second).toHaveTextContent('angebot-we');
    expect(within(second as HTMLElement).getAllByRole('cell')[1]).toHaveTextContent('–');
    expect(api.callsTo(`GET ${BASE}/versions/3/trial`)[0]?.url).toBe(`${BASE}/versions/3/trial`);

    await userEvent.type(screen.getByRole('textbox', { name: /Match-ID/ }), 'PL-10011');
    await userEvent.click(screen.getByRole('button', { name: 'Ausprobieren' }));
    await waitFor(() => expect(api.callsTo(`GET ${BASE}/versions/3/trial?matchId=PL-10011`)).toHaveLength(1));

    await publishWithComment(api, `POST ${BASE}/versions/3/publish`, 3, 1);
    expect(screen.getByText('Das ist die veröffentlichte Version.', { selector: 'p' })).toBeInTheDocument();
  });

  it("says in the server's words why publishing was refused", async () => {
    stubApi({
      ...unmarked,
      [`GET ${BASE}`]: jsonResponse(200, offerWithCleanDraft),
      [`GET ${BASE}/versions/3/comparison`]: jsonResponse(200, comparison),
      [`GET ${BASE}/versions/3/trial`]: jsonResponse(200, trial),
      [`POST ${BASE}/versions/3/publish`]: stalePublication(),
    });
    open();
    await expectStalePublicationRefused();
  });

  it('offers an earlier version to publish again, and keeps the version under review in the address', async () => {
    const rolledForward = {
      ...offerWithCleanDraft,
      publishedVersion: 3,
      versions: [
        { ...cleanDraft, status: 'veröffentlicht' },
        { ...publishedVersion, status: 'ersetzt' },
      ],
    };
    stubApi({
      ...unmarked,
      [`GET ${BASE}`]: jsonResponse(200, rolledForward),
      [`GET ${BASE}/versions/1/comparison`]: jsonResponse(200, { ...comparison, base: 3, version: 1 }),
      [`GET ${BASE}/versions/1/trial`]: jsonResponse(200, trial),
      [`GET ${BASE}/versions/3/comparison`]: jsonResponse(200, comparison),
      [`GET ${BASE}/versions/3/trial`]: jsonResponse(200, trial),
    });
    const { router } = open('?version=1');
    expect(await screen.findByRole('heading', { name: 'Version 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Version 1 wieder veröffentlichen' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Version 3 ansehen' }));
    expect(router.state.location.search).toBe('?version=3');
    expect(await screen.findByRole('heading', { name: 'Version 3' })).toBeInTheDocument();
  });

  it.each(['1.0', '1e0', '0x1'])(
    'takes ?version=%s for no version and opens the newest draft',
    async (odd) => {
      stubApi({
        ...unmarked,
        [`GET ${BASE}`]: jsonResponse(200, offerWithDrafts),
        [`GET ${BASE}/versions/2/comparison`]: jsonResponse(200, { ...comparison, version: 2 }),
      });
      open(`?version=${odd}`);
      expect(await screen.findByRole('heading', { name: 'Version 2' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Version 1' })).not.toBeInTheDocument();
    },
  );

  it('uploads a new version with its comment and opens it', async () => {
    const api = stubUploads(jsonResponse(201, cleanDraft));
    const { router } = open();
    await screen.findByRole('heading', { name: 'Version 2' });
    await upload();
    expect(screen.getByText('Bitte eine Word-Datei auswählen.')).toBeInTheDocument();
    const file = new File(['PK'], 'angebot-de.docx', { type: 'application/octet-stream' });
    await userEvent.upload(fileInput(), file);
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Was ändert sich?' }),
      'Bindefrist sechs Wochen',
    );
    await upload();
    await waitFor(() => expect(router.state.location.search).toBe('?version=3'));
    const [sent] = api.callsTo(`POST ${BASE}/versions`);
    expect(sent?.url).toBe(`${BASE}/versions?comment=Bindefrist%20sechs%20Wochen`);
    expect(api.headersOf(`POST ${BASE}/versions`)[0]?.get('Content-Type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(await screen.findByRole('heading', { name: 'Version 3' })).toBeInTheDocument();
  });

  it("shows the server's reason when a file is refused", async () => {
    stubUploads(refused);
    open();
    await screen.findByRole('heading', { name: 'Version 2' });
    await userEvent.upload(fileInput(), new File(['x'], 'umbenannt.docx'));
    await upload();
    expect(await screen.findByText('Die Datei enthält Makros (.docm).')).toBeInTheDocument();
  });

  it('uploads a corrected file chosen again under the same name', async () => {
    const api = stubUploads([refused, jsonResponse(201, cleanDraft)]);
    open();
    await screen.findByRole('heading', { name: 'Version 2' });
    await chooseFile(docx('mit Makro'));
    await upload();
    expect(await screen.findByText('Die Datei enthält Makros (.docm).')).toBeInTheDocument();

    await chooseFile(docx('ohne Makro'));
    expect(screen.queryByText('Die Datei enthält Makros (.docm).')).not.toBeInTheDocument();
    await upload();
    expect(await screen.findByRole('heading', { name: 'Version 3' })).toBeInTheDocument();
    expect(await uploadedTexts(api)).toEqual(['mit Makro', 'ohne Makro']);
  });

  it('asks to choose a file again that can no longer be read, instead of blaming the server', async () => {
    const api = stubUploads(jsonResponse(201, cleanDraft));
    open();
    await screen.findByRole('heading', { name: 'Version 2' });
    await chooseFile(savedAfterChoice(docx('gespeichert, nachdem sie gewählt war')));
    await upload();

    expect(await screen.findByText(UNREADABLE)).toBeInTheDocument();
    expect(screen.queryByText(/Der Server ist nicht erreichbar/)).not.toBeInTheDocument();
    expect(api.callsTo(`POST ${BASE}/versions`)).toHaveLength(0);

    await chooseFile(docx('neu gewählt'));
    expect(screen.queryByText(UNREADABLE)).not.toBeInTheDocument();
    await upload();
    expect(await screen.findByRole('heading', { name: 'Version 3' })).toBeInTheDocument();
    expect(await uploadedTexts(api)).toEqual(['neu gewählt']);
  });

  it('refuses a file over 10 MB before sending it', async () => {
    const api = stubUploads(jsonResponse(201, cleanDraft));
    open();
    await screen.findByRole('heading', { name: 'Version 2' });
    const huge = new File(['x'], 'riesig.docx');
    Object.defineProperty(huge, 'size', { value: 30 * 1024 * 1024 });
    await userEvent.upload(fileInput(), huge);
    await upload();
    expect(screen.getByText(/Die Datei ist größer als 10 MB/)).toBeInTheDocument();
    expect(api.callsTo(`POST ${BASE}/versions`)).toHaveLength(0);
  });
});
