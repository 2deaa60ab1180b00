import { Tabs, Title } from '@mantine/core';
import { useState } from 'react';
import { AccessRequestsTab } from './access-requests-tab';
import { AuditTab } from './audit-tab';
import { CountersignatureTab } from './countersignature-tab';
import { MatchImportTab } from './match-import-tab';
import { StaffTab } from './staff-tab';
import { adminTexts } from './texts';

type Tab = keyof typeof adminTexts.tabs;

/**
 * /verwaltung: what Team-Operations does without a shell. Each tab loads only when shown;
 * the server refuses everyone who is not an administrator, whatever this page offers.
 */
export function AdministrationPage() {
  const [tab, setTab] = useState<Tab>('requests');
  return (
    <>
      <Title order={1} mb="md">
        {adminTexts.heading}
      </Title>
      <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'requests')} keepMounted={false}>
        <Tabs.List>
          {(Object.keys(adminTexts.tabs) as Tab[]).map((key) => (
            <Tabs.Tab key={key} value={key}>
              {adminTexts.tabs[key]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="requests" pt="md">
          <AccessRequestsTab />
        </Tabs.Panel>
        <Tabs.Panel value="staff" pt="md">
          <StaffTab />
        </Tabs.Panel>
        <Tabs.Panel value="audit" pt="md">
          <AuditTab />
        </Tabs.Panel>
        <Tabs.Panel value="import" pt="md">
          <MatchImportTab />
        </Tabs.Panel>
        <Tabs.Panel value="countersignature" pt="md">
          <CountersignatureTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
