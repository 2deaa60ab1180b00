import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DOCX_MIME_TYPE,
  FORM_ROUTES,
  type FormName,
  type PermissionLevel,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { DocumentFormPage } from '@/app/document-forms';
import { type ApiAnswer, jsonResponse, renderRoutes, stubApi } from '@/test/utils';

export const match: ResolvedMatch = {
  matchId: 'PL-10001',
  candidateFirstName: 'Carla',
  candidateLastName: 'Projekt',
  kunde: 'Elbwerk Logistik AG',
  position: 'Backend-Entwicklerin',
};

export const users = [
  { Name: 'Zoe Zeller', Email: 'zoe@demo.local' },
  { Name: 'Anna Aster', Email: 'anna@demo.local' },
];

export const signatories = [
  { id: 'henrik-albers', name: 'Henrik Albers', function: 'Geschäftsführer' },
  { id: 'lea-brandt', name: 'Lea Brandt', function: 'Leiterin Recht & Verträge' },
];

const routes = [
  // As the app composes them: with the generation flow that sends the form's order to the server.
  ...(Object.entries(FORM_ROUTES) as [FormName, string][]).map(([form, path]) => ({
    path,
    element: <DocumentFormPage form={form} />,
  })),
  { path: '/start', element: <p>Startseite</p> },
];

/** Renders a form page for a user of `level` with a stored, loadable match and the lists the forms use. */
export function renderForm(
  form: FormName,
  {
    level = 2,
    api = {},
    matchId = match.matchId,
  }: { level?: PermissionLevel; api?: Record<string, ApiAnswer | ApiAnswer[]>; matchId?: string | null } = {},
) {
  if (matchId !== null) localStorage.setItem('matchId', matchId);
  localStorage.setItem('userMail', 'nutzer@demo.local');
  const stub = stubApi({
    'POST /backend/match/': jsonResponse(200, match),
    'POST /backend/private/getPermission/': jsonResponse(200, { data: level }),
    'GET /backend/users': jsonResponse(200, users),
    'GET /backend/signatories': jsonResponse(200, signatories),
    'POST /backend/documentCheck/': jsonResponse(200, { missing: [], optionalClauses: [] }),
    ...api,
  });
  return { ...renderRoutes(routes, FORM_ROUTES[form]), ...stub };
}

export const submitButton = () => screen.getByRole('button', { name: 'Dokument erstellen' });

export async function findField(label: string) {
  return screen.findByRole('combobox', { name: label });
}

/** Picks `option` in the select labelled `label`. */
export async function choose(label: string, option: string) {
  await userEvent.click(await findField(label));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

/**
 * Replaces a text field's value as a person pasting it would: one input event. Typing key by key
 * renders the whole form once per letter, which made the form tests the slowest of the suite without
 * testing more (the fields validate the value, not the keys).
 */
export async function typeInto(label: string, text: string) {
  const input = screen.getByRole('textbox', { name: label });
  await userEvent.clear(input);
  if (text !== '') await userEvent.paste(text);
}

export function docxResponse(fileHeader: string) {
  return new Response(new Blob(['PK docx']), {
    status: 200,
    headers: {
      'Content-Type': DOCX_MIME_TYPE,
      'Content-Disposition': fileHeader,
    },
  });
}
