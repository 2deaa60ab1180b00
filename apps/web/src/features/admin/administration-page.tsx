import { Tabs, Title } from '@mantine/core';
import { isLegal, type SessionUser } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { AccessRequestsTab } from './access-requests-tab';
import { ApiClientsTab } from './api-clients-tab';
import { ApprovalRulesTab } from './approval-rules-tab';
import { AuditTab } from './audit-tab';
import { ContractRemindersTab } from './contract-reminders-tab';
import { CountersignatureTab } from './countersignature-tab';
import { IntegrationsTab } from './integrations/integrations-tab';
import { MatchImportTab } from './match-import-tab';
import { PersonDataTab } from './person-data-tab';
import { RetentionTab } from './retention-tab';
import { StaffTab } from './staff-tab';
import { adminTexts } from './texts';

type Tab = keyof typeof adminTexts.tabs;

const ALL_TABS = Object.keys(adminTexts.tabs) as Tab[];

/** Legal staff who do not administer keep only the approval rules here. */
function tabsFor(user: SessionUser | null | undefined): Tab[] {
  if (user && !user.administrator && isLegal(user.permission)) return ['approvals'];
  return ALL_TABS;
}

/**
 * /verwaltung: what Team-Operations does without a shell, and the approval rules legal staff keep
 * as well. Each tab loads only when shown; the server refuses everyone a tab is not for, whatever
 * this page offers. Without `user` (not known) every tab is offered.
 */
export function AdministrationPage({ user }: { user?: SessionUser | null }) {
  const tabs = tabsFor(user);
  const first = tabs[0] ?? 'requests';
  const [tab, setTab] = useState<Tab>(first);
  return (
    <>
      <Title order={1} mb="md">
        {adminTexts.heading}
      </Title>
      <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? first)} keepMounted={false}>
        <Tabs.List>
          {tabs.map((key) => (
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
        <Tabs.Panel value="retention" pt="md">
          <RetentionTab />
        </Tabs.Panel>
        <Tabs.Panel value="personData" pt="md">
          <PersonDataTab />
        </Tabs.Panel>
        <Tabs.Panel value="approvals" pt="md">
          <ApprovalRulesTab />
        </Tabs.Panel>
        <Tabs.Panel value="integrations" pt="md">
          <IntegrationsTab />
        </Tabs.Panel>
        <Tabs.Panel value="apiClients" pt="md">
          <ApiClientsTab />
        </Tabs.Panel>
        <Tabs.Panel value="contractReminders" pt="md">
          <ContractRemindersTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
