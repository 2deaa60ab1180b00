import { screen } from '@testing-library/react';
import { FORM_ROUTES, type PermissionLevel } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../test/utils';
import { FormatPage } from './format-page';

const routes = [
  { path: '/format', element: <FormatPage /> },
  ...Object.values(FORM_ROUTES).map((path) => ({ path, element: <p>Formular {path}</p> })),
];

function renderWithPermission(permission: PermissionLevel | null) {
  if (permission !== null) localStorage.setItem('permission', String(permission));
  return renderRoutes(routes, '/format');
}

function offeredLinks() {
  return screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('FormatPage', () => {
  it('redirects a consultant straight to the only allowed form', async () => {
    const { router } = renderWithPermission(1);
    expect(await screen.findByText(`Formular ${FORM_ROUTES.docusign}`)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(FORM_ROUTES.docusign);
  });

  it('offers legal users all five forms', () => {
    renderWithPermission(2);
    expect(offeredLinks()).toEqual([
      ['DocuSign-Verträge', FORM_ROUTES.docusign],
      ['DOCX-Kunde-Verträge', FORM_ROUTES.docx],
      ['Kündigungen', FORM_ROUTES.termination],
      ['Angebotserstellung', FORM_ROUTES.offer],
      ['Zusatzvereinbarungen', FORM_ROUTES.agreement],
    ]);
  });

  it('offers leaders e-signature contracts and offers', () => {
    renderWithPermission(3);
    expect(offeredLinks()).toEqual([
      ['DocuSign-Verträge', FORM_ROUTES.docusign],
      ['Angebotserstellung', FORM_ROUTES.offer],
    ]);
  });

  it('tells a user without permission to ask Team-Operations', () => {
    const { router } = renderWithPermission(null);
    expect(screen.getByRole('alert')).toHaveTextContent(/Team-Operations/);
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/format');
  });

  it('treats an unknown stored level as no permission', () => {
    localStorage.setItem('permission', '7');
    renderRoutes(routes, '/format');
    expect(screen.getByRole('alert')).toHaveTextContent(/Team-Operations/);
  });
});
