import { Breadcrumbs, Button } from '@mantine/core';
import { useLayoutEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { texts } from '@/texts';
import { pageName, readHistory, recordVisit, writeHistory } from './router-history';

export function BreadcrumbBar() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [history, setHistory] = useState(readHistory);

  // A layout effect, so the trail already shows the new page when it is first painted.
  useLayoutEffect(() => {
    const next = recordVisit(readHistory(), pathname);
    writeHistory(next);
    setHistory(next);
  }, [pathname]);

  return (
    <nav aria-label={texts.shell.breadcrumbsLabel}>
      <Breadcrumbs separator="›" separatorMargin={4}>
        {history.map((path) =>
          path === pathname ? (
            <Button key={path} variant="subtle" size="compact-sm" disabled aria-current="page">
              {pageName(path)}
            </Button>
          ) : (
            // Revisiting trims the trail back to this page (recordVisit).
            <Button key={path} variant="subtle" size="compact-sm" onClick={() => navigate(path)}>
              {pageName(path)}
            </Button>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}
