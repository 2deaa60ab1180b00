import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FORM_ROUTES } from '@vertragsgenerator/domain';
import { Outlet } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '@/test/utils';
import { BreadcrumbBar } from './breadcrumb-bar';
import { readHistory } from './router-history';

const routes = [
  { path: '/login', element: <p>Login</p> },
  {
    element: (
      <>
        <BreadcrumbBar />
        <Outlet />
      </>
    ),
    children: [{ path: '*', element: null }],
  },
];

describe('BreadcrumbBar', () => {
  it('lists visited pages, shows the current one disabled and trims back on click', async () => {
    const { router } = renderRoutes(routes, '/start');
    await act(() => router.navigate('/format'));
    await act(() => router.navigate(FORM_ROUTES.offer));

    expect(screen.getByRole('button', { name: 'Angebotserstellung' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Angebotserstellung' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(readHistory()).toEqual(['/start', '/format', FORM_ROUTES.offer]);

    await userEvent.click(screen.getByRole('button', { name: 'ID-Input' }));

    expect(router.state.location.pathname).toBe('/start');
    expect(readHistory()).toEqual(['/start']);
    expect(screen.queryByRole('button', { name: 'Format' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'ID-Input' })).toBeDisabled();
  });

  it('continues the trail kept in session storage and leaves out /login', async () => {
    sessionStorage.setItem('router-history', JSON.stringify(['/start']));
    const { router } = renderRoutes(routes, '/format');
    await act(() => router.navigate('/login'));
    await act(() => router.navigate(FORM_ROUTES.docusign));

    expect(readHistory()).toEqual(['/start', '/format', FORM_ROUTES.docusign]);
    expect(screen.getByRole('button', { name: 'Format' })).toBeEnabled();
  });
});
