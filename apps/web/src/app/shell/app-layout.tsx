import { AppShell, Button, Group, Text } from '@mantine/core';
import { isLegal, type SessionUser } from '@vertragsgenerator/domain';
import { Link, Outlet, useLoaderData } from 'react-router';
import { CLAUSE_PATHS, CLAUSES_PAGE_NAME } from '@/features/clauses/paths';
import { useDriveTokenMonitor } from '@/features/google-drive';
import { PATHS } from '@/lib/paths';
import { useRuntimeConfig } from '@/lib/runtime-config';
import { texts } from '@/texts';
import { BreadcrumbBar } from './breadcrumb-bar';
import { LogoutButton } from './logout-button';
import { ProblemReportButton } from './problem-report-dialog';

/**
 * Up to this many area links stand in one row with the breadcrumbs, the problem report and logout at
 * 1280 px; with more (legal staff reach nine), they get a row of their own below, or the row would run
 * past the window's edge and cut off Logout.
 */
const AREAS_IN_ONE_ROW = 6;

interface Area {
  to: string;
  label: string;
}

/** The areas of the app this user reaches, in the header's order. */
function areasOf(user: SessionUser | null): Area[] {
  const areas: Area[] = [];
  if (user?.permission != null) {
    areas.push(
      { to: PATHS.signatureOverview, label: texts.shell.signatureOverview },
      { to: PATHS.contracts, label: texts.shell.contracts },
      { to: PATHS.batches, label: texts.shell.batches },
      { to: PATHS.sealCheck, label: texts.shell.sealCheck },
    );
  }
  // Whoever the approval rules name now (leaders, legal staff, deputies), as the server says.
  if (user?.approver) areas.push({ to: PATHS.approvals, label: texts.shell.approvals });
  // Leaders and legal staff: the figures of the contract work.
  if (user?.permission === 2 || user?.permission === 3) {
    areas.push({ to: PATHS.figures, label: texts.shell.figures });
  }
  if (isLegal(user?.permission) || user?.administrator) {
    areas.push(
      { to: PATHS.templates, label: texts.shell.templates },
      { to: CLAUSE_PATHS.clauses, label: CLAUSES_PAGE_NAME },
    );
  }
  // Legal staff keep the approval rules there (the tab Freigaben).
  if (user?.administrator || isLegal(user?.permission)) {
    areas.push({ to: PATHS.administration, label: texts.shell.administration });
  }
  return areas;
}

function AreaLinks({ areas }: { areas: Area[] }) {
  return areas.map((area) => (
    <Button key={area.to} component={Link} to={area.to} variant="subtle" size="compact-sm">
      {area.label}
    </Button>
  ));
}

/** The frame of every page but /login: breadcrumbs, the areas' links, problem report, logout, version. */
export function AppLayout() {
  const { version } = useRuntimeConfig();
  // The route guard's answer: who is signed in (null while a newer navigation takes over).
  const user = useLoaderData() as SessionUser | null;
  useDriveTokenMonitor();
  const areas = areasOf(user);
  const ownRow = areas.length > AREAS_IN_ONE_ROW;
  return (
    <AppShell header={{ height: ownRow ? 96 : 60 }} footer={{ height: 36 }} padding="md">
      <AppShell.Header px="md">
        <Group h={60} justify="space-between" wrap="nowrap">
          <BreadcrumbBar />
          <Group gap="xs" wrap="nowrap">
            {!ownRow && <AreaLinks areas={areas} />}
            <ProblemReportButton />
            <LogoutButton />
          </Group>
        </Group>
        {ownRow && (
          <Group gap="xs" wrap="nowrap" h={36} align="flex-start">
            <AreaLinks areas={areas} />
          </Group>
        )}
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer px="md">
        <Group h="100%" justify="flex-end">
          <Text size="sm" c="dimmed">
            {texts.shell.version(version)}
          </Text>
        </Group>
      </AppShell.Footer>
    </AppShell>
  );
}
