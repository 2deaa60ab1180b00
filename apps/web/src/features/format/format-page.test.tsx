import { screen } from '@testing-library/react';
import { FORM_ROUTES, FORMS_BY_LEVEL, type PermissionLevel } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderRoutes, stubFetch } from '@/test/utils';
import { FormatPage } from './format-page';

const routes = [
  { path: '/format', element: <FormatPage /> },
  ...Object.values(FORM_ROUTES).map((path) => ({ path, element: <p>Formular {path}</p> })),
];

const email = 'nutzer@demo.local';

function renderWithAnswer(answer: Response | Error) {
  localStorage.setItem('userMail', email);
  const fetchMock = stubFetch(answer);
  return { ...renderRoutes(routes, '/format'), fetchMock };
}

function renderWithLevel(level: PermissionLevel) {
  return renderWithAnswer(jsonResponse(200, { data: level }));
}

async function offeredLinks() {
  await screen.findByRole('navigation', { name: 'Format wählen' });
  return screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('FormatPage', () => {
  it('asks the server for the permission, showing a loader meanwhile, and stores the answer', async () => {
    const { fetchMock } = renderWithLevel(2);
    expect(screen.getByRole('status', { name: 'Wird geladen …' })).toBeInTheDocument();

    expect(await offeredLinks()).toHaveLength(FORMS_BY_LEVEL[2].length);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/backend/private/getPermission/nutzer%40demo.local');
    expect(init?.method).toBe('POST');
    expect(localStorage.getItem('permission')).toBe('2');
  });

  it('trusts the server over a level stored earlier', async () => {
    localStorage.setItem('permission', '2');
    renderWithLevel(3);
    expect(await offeredLinks()).toHaveLength(FORMS_BY_LEVEL[3].length);
    expect(localStorage.getItem('permission')).toBe('3');
  });

  it('redirects a consultant straight to the only allowed form', async () => {
    const { router } = renderWithLevel(1);
    expect(await screen.findByText(`Formular ${FORM_ROUTES.docusign}`)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(FORM_ROUTES.docusign);
  });

  it('offers legal users all five forms', async () => {
    renderWithLevel(2);
    expect(await offeredLinks()).toEqual([
      ['DocuSign-Verträge', FORM_ROUTES.docusign],
      ['DOCX-Kunde-Verträge', FORM_ROUTES.docx],
      ['Kündigungen', FORM_ROUTES.termination],
      ['Angebotserstellung', FORM_ROUTES.offer],
      ['Zusatzvereinbarungen', FORM_ROUTES.agreement],
    ]);
  });

  it('offers leaders e-signature contracts and offers', async () => {
    renderWithLevel(3);
    expect(await offeredLinks()).toEqual([
      ['DocuSign-Verträge', FORM_ROUTES.docusign],
      ['Angebotserstellung', FORM_ROUTES.offer],
    ]);
  });

  it('tells a user without permission (204) to ask Team-Operations and forgets a stored level', async () => {
    localStorage.setItem('permission', '2');
    const { router } = renderWithAnswer(new Response(null, { status: 204 }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Team-Operations/);
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/format');
    expect(localStorage.getItem('permission')).toBeNull();
  });

  it('treats an unknown level in the answer as an error, not as a permission', async () => {
    renderWithAnswer(jsonResponse(200, { data: 7 }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Der Server hat unerwartet geantwortet. Bitte versuche es erneut.',
    );
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });

  it("shows the server's message when the permission cannot be read", async () => {
    const message = 'Die Datenbank ist gerade nicht erreichbar.';
    renderWithAnswer(jsonResponse(503, { error: 'unavailable', message }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });

  it('offers nothing and asks nobody without a known user', async () => {
    const fetchMock = stubFetch(jsonResponse(200, { data: 2 }));
    renderRoutes(routes, '/format');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Team-Operations/);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
