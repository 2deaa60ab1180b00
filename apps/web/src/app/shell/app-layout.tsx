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

/** The frame of every page but /login: breadcrumbs, problem report, logout, version. */
export function AppLayout() {
  const { version } = useRuntimeConfig();
  // The route guard's answer: who is signed in (null while a newer navigation takes over).
  const user = useLoaderData() as SessionUser | null;
  useDriveTokenMonitor();
  return (
    <AppShell header={{ height: 60 }} footer={{ height: 36 }} padding="md">
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <BreadcrumbBar />
          {/* Compact links: with every area a leader or legal staff member reaches, the header still fits 1280 px. */}
          <Group gap="xs" wrap="nowrap">
            {user?.permission != null && (
              <>
                <Button component={Link} to={PATHS.signatureOverview} variant="subtle" size="compact-sm">
                  {texts.shell.signatureOverview}
                </Button>
                <Button component={Link} to={PATHS.contracts} variant="subtle" size="compact-sm">
                  {texts.shell.contracts}
                </Button>
                <Button component={Link} to={PATHS.batches} variant="subtle" size="compact-sm">
                  {texts.shell.batches}
                </Button>
                <Button component={Link} to={PATHS.sealCheck} variant="subtle" size="compact-sm">
                  {texts.shell.sealCheck}
                </Button>
              </>
            )}
            {/* Whoever the approval rules name now (leaders, legal staff, deputies), as the server says. */}
            {user?.approver && (
              <Button component={Link} to={PATHS.approvals} variant="subtle" size="compact-sm">
                {texts.shell.approvals}
              </Button>
            )}
            {/* Leaders and legal staff: the figures of the contract work. */}
            {(user?.permission === 2 || user?.permission === 3) && (
              <Button component={Link} to={PATHS.figures} variant="subtle" size="compact-sm">
                {texts.shell.figures}
              </Button>
            )}
            {(isLegal(user?.permission) || user?.administrator) && (
              <>
                <Button component={Link} to={PATHS.templates} variant="subtle" size="compact-sm">
                  {texts.shell.templates}
                </Button>
                <Button component={Link} to={CLAUSE_PATHS.clauses} variant="subtle" size="compact-sm">
                  {CLAUSES_PAGE_NAME}
                </Button>
              </>
            )}
            {/* Legal staff keep the approval rules there (the tab Freigaben). */}
            {(user?.administrator || isLegal(user?.permission)) && (
              <Button component={Link} to={PATHS.administration} variant="subtle" size="compact-sm">
                {texts.shell.administration}
              </Button>
            )}
            <ProblemReportButton />
            <LogoutButton />
          </Group>
        </Group>
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
