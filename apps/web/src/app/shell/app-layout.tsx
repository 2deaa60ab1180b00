import { AppShell, Group, Text } from '@mantine/core';
import { Outlet } from 'react-router';
import { useDriveTokenMonitor } from '../../features/google-drive';
import { useRuntimeConfig } from '../../lib/runtime-config';
import { texts } from '../../texts';
import { BreadcrumbBar } from './breadcrumb-bar';
import { LogoutButton } from './logout-button';
import { ProblemReportButton } from './problem-report-dialog';

/** The frame of every page but /login (SPEC §2): breadcrumbs, problem report, logout, version. */
export function AppLayout() {
  const { version } = useRuntimeConfig();
  useDriveTokenMonitor();
  return (
    <AppShell header={{ height: 60 }} footer={{ height: 36 }} padding="md">
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <BreadcrumbBar />
          <Group gap="sm" wrap="nowrap">
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
