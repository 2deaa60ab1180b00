import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionUser, StoredDocument } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { SESSION_ROUTE } from '@/lib/paths';
import { readText } from '@/test/files';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { SignedElsewhereButton } from './signed-elsewhere';
import { contractFields } from './test-fixtures';

const UPLOAD = 'POST /backend/documents/doc-1/signed-elsewhere?';
const CONTRACT_ID = '66666666-6666-4666-8666-666666666666';

const legal: SessionUser = {
  email: 'legal@demo.local',
  name: 'Lena Legal',
  permission: 2,
  administrator: false,
};
const contract: StoredDocument = {
  ...contractFields,
  versions: [
    {
      version: 1,
      size: 24_310,
      sha256: 'a'.repeat(64),
      createdBy: 'legal@demo.local',
      createdAt: '2026-11-20T09:00:00Z',
    },
  ],
};

function renderButton(document: StoredDocument = contract, user: SessionUser = legal, dirty = false) {
  return renderRoutes(
    [
      {
        id: SESSION_ROUTE,
        loader: () => user,
        children: [
          {
            path: '/dokumente/:documentId',
            Component: () => (
              <>
                <SignedElsewhereButton document={document} dirty={dirty} />
                <p>Editor</p>
              </>
            ),
          },
          { path: '/vertraege/:contractId', Component: () => <p>Vertragsseite</p> },
        ],
      },
    ],
    `/dokumente/${document.id}`,
  );
}

const pdf = (name = 'Rahmenvertrag unterschrieben.pdf') =>
  new File(['%PDF-1.7\n%%EOF\n'], name, { type: 'application/pdf' });
const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;

async function openDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Als unterschrieben erfassen' }));
  return screen.findByRole('dialog', { name: 'Als unterschrieben erfassen' });
}

describe('SignedElsewhereButton', () => {
  it.each([
    { who: 'a leader', document: contract, user: { ...legal, permission: 3 as const } },
    { who: 'a consultant', document: contract, user: { ...legal, permission: 1 as const } },
    { who: 'legal, for an offer', document: { ...contract, docKey: 'angebot-wm' }, user: legal },
  ])('is not offered to $who', async ({ document, user }) => {
    stubApi({});
    renderButton(document, user);
    // The page has rendered once its loader answered; the button would be there by then.
    expect(await screen.findByText('Editor')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Als unterschrieben erfassen' })).not.toBeInTheDocument();
  });

  it.each(['kuendigung-wm-k-termination-gerecht', 'zusatz-wm-k-hours', 'de-wm-k-ev-1'])(
    'is offered to legal for %s',
    async (docKey) => {
      stubApi({});
      renderButton({ ...contract, docKey });
      expect(await screen.findByRole('button', { name: 'Als unterschrieben erfassen' })).toBeInTheDocument();
    },
  );

  it('sends the signed PDF with the day and who signed, and links the contract it became', async () => {
    const api = stubApi({ [UPLOAD]: jsonResponse(201, { contractId: CONTRACT_ID }) });
    renderButton();
    const dialog = await openDialog();
    await userEvent.upload(fileInput(), pdf());
    await userEvent.type(within(dialog).getByLabelText(/^Datum der Unterschrift/), '2026-11-20');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /^Unterschrieben von/ }),
      'Dr. Jürgen Müller',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erfassen' }));

    const link = await within(dialog).findByRole('link', { name: 'Zum Vertrag' });
    expect(link).toHaveAttribute('href', `/vertraege/${CONTRACT_ID}`);
    expect(within(dialog).getByText('Als unterschrieben erfasst')).toBeInTheDocument();
    const [call] = api.fetchMock.mock.calls;
    expect(String(call?.[0])).toBe(
      '/backend/documents/doc-1/signed-elsewhere?signedOn=2026-11-20&signedBy=Dr.+J%C3%BCrgen+M%C3%BCller',
    );
    const body = call?.[1]?.body as Blob;
    expect(body.type).toBe('application/pdf');
    expect(await readText(body)).toBe('%PDF-1.7\n%%EOF\n');
    expect(api.headersOf(UPLOAD)[0]?.get('Content-Type')).toBe('application/pdf');
  });

  it('checks the file, the day and the signer before sending anything', async () => {
    const api = stubApi({ [UPLOAD]: jsonResponse(201, { contractId: CONTRACT_ID }) });
    renderButton();
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erfassen' }));
    expect(within(dialog).getByText('Bitte wähle das unterschriebene PDF.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Bitte gib das Datum der Unterschrift an (JJJJ-MM-TT).'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('Bitte gib an, wer unterschrieben hat.')).toBeInTheDocument();

    const huge = pdf('riesig.pdf');
    Object.defineProperty(huge, 'size', { value: 20 * 1024 * 1024 + 1 });
    await userEvent.upload(fileInput(), huge);
    expect(within(dialog).getByText('Die Datei ist größer als 20 MB.')).toBeInTheDocument();
    await userEvent.setup({ applyAccept: false }).upload(fileInput(), new File(['PK'], 'vertrag.docx'));
    expect(within(dialog).getByText('Bitte wähle eine PDF-Datei.')).toBeInTheDocument();

    const tomorrow = new Date(Date.now() + 36 * 60 * 60 * 1000);
    const iso = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await userEvent.type(within(dialog).getByLabelText(/^Datum der Unterschrift/), iso);
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Unterschrieben von/ }), 'Frau Kunde');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erfassen' }));
    expect(within(dialog).getByText('Das Datum der Unterschrift liegt in der Zukunft.')).toBeInTheDocument();
    expect(api.callsTo(UPLOAD)).toHaveLength(0);
  });

  it('shows the server’s refusal: a second record in its words, a date at its field', async () => {
    stubApi({
      [UPLOAD]: [
        jsonResponse(409, {
          error: 'already_recorded',
          message:
            'Diese Fassung des Dokuments ist schon als unterschrieben erfasst. Öffne den Vertrag unter Verträge.',
        }),
        jsonResponse(400, {
          error: 'invalid_input',
          message: 'Das Datum der Unterschrift liegt in der Zukunft.',
          fields: { signedOn: ['Das Datum der Unterschrift liegt in der Zukunft.'] },
        }),
      ],
    });
    renderButton();
    const dialog = await openDialog();
    await userEvent.upload(fileInput(), pdf());
    const date = within(dialog).getByLabelText(/^Datum der Unterschrift/);
    await userEvent.type(date, '2026-11-20');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Unterschrieben von/ }), 'Frau Kunde');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erfassen' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Diese Fassung des Dokuments ist schon als unterschrieben erfasst. Öffne den Vertrag unter Verträge.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erfassen' }));
    expect(
      await within(dialog).findByText('Das Datum der Unterschrift liegt in der Zukunft.'),
    ).toBeInTheDocument();
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: 'Zum Vertrag' })).not.toBeInTheDocument();
  });
});
