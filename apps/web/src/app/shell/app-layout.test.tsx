import { screen } from '@testing-library/react';
import type { SessionUser } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubApi } from '@/test/utils';
import { AppLayout } from './app-layout';

const consultant: SessionUser = {
  email: 'anna.albrecht@demo.local',
  name: 'Anna Albrecht',
  permission: 1,
  administrator: false,
  approver: false,
};

function renderShell(user: SessionUser) {
  stubApi({});
  return renderRoutes(
    [
      {
        path: '/start',
        loader: () => user,
        Component: AppLayout,
        children: [{ index: true, element: <p>Start</p> }],
      },
    ],
    '/start',
  );
}

describe('the header’s link to /freigaben', () => {
  it('shows for whoever the server names as approver, a consultant named deputy too', async () => {
    renderShell({ ...consultant, approver: true });
    const link = await screen.findByRole('link', { name: 'Freigaben' });
    expect(link).toHaveAttribute('href', '/freigaben');
  });

  it('stays away for everyone else, whatever their level', async () => {
    renderShell({ ...consultant, permission: 3, approver: false });
    expect(await screen.findByText('Start')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Signaturen' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Freigaben' })).not.toBeInTheDocument();
  });
});

describe('the header’s link to /serien', () => {
  it('shows for every document level', async () => {
    renderShell(consultant);
    const link = await screen.findByRole('link', { name: 'Serien' });
    expect(link).toHaveAttribute('href', '/serien');
  });

  it('stays away for someone without a level', async () => {
    renderShell({ ...consultant, permission: null });
    expect(await screen.findByText('Start')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Serien' })).not.toBeInTheDocument();
  });
});
