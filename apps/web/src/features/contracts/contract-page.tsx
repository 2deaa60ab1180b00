import { Alert, Anchor, Group, List, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  CONTRACT_KIND_LABELS,
  type ContractRecord,
  describeNoticeRule,
  formatDateTime,
  formatGermanNumber,
  formatPrice,
  parseGermanNumber,
} from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { RecordLoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { contractPath, documentPath, envelopePath, PATHS } from '@/lib/paths';
import { contractQueryOptions } from './api';
import { ContractChain } from './contract-chain';
import { ContractStatusBadge } from './contract-status-badge';
import type { ContractLinkState } from './contracts-table';
import { shownDate, signedDay } from './dates';
import { NoticeRuleForm } from './notice-rule-form';
import { COMPANY_LABELS, contractsTexts, HISTORY_EVENT_LABELS, NOTICE_RULE_SOURCE_LABELS } from './texts';

const t = contractsTexts.record;

/** A rate as the document states it, in German notation; a value that is no number as written. */
const shownPrice = (value: string | null) => (value ? formatPrice(value) : contractsTexts.none);
const shownHours = (value: string | null) => {
  const hours = value ? parseGermanNumber(value) : undefined;
  return hours === undefined ? (value ?? contractsTexts.none) : formatGermanNumber(hours);
};

/** A term and its value, as the record's sections list them. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed">
        {term}
      </Text>
      <Text component="dd" m={0} fw={500}>
        {children}
      </Text>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function BackLink() {
  const state = useLocation().state as Partial<ContractLinkState> | null;
  const list = typeof state?.list === 'string' ? state.list : '';
  return (
    <Anchor component={Link} to={`${PATHS.contracts}${list}`} size="sm">
      ← {t.back}
    </Anchor>
  );
}

function Source({ record }: { record: ContractRecord }) {
  const { source } = record;
  return (
    <Stack gap="xs">
      <Text>
        {source.kind === 'envelope' ? t.viaEnvelope : t.signedElsewhere(source.signedBy)}
        {` · ${t.signedAt} ${signedDay(record.signedAt)}`}
      </Text>
      {source.envelopeId && (
        <Anchor component={Link} to={envelopePath(source.envelopeId)}>
          {t.openEnvelope}
        </Anchor>
      )}
      <Text size="sm">
        {t.document}: {source.fileName ?? t.documentDeleted} ({t.documentVersion(source.documentVersion)})
      </Text>
      {source.fileName !== null && (
        <Anchor component={Link} to={documentPath(source.documentId)}>
          {t.openDocument}
        </Anchor>
      )}
      {record.negotiation && source.fileName !== null && (
        <Anchor component={Link} to={`${documentPath(source.documentId)}#verhandlung`}>
          {t.negotiation(record.negotiation.rounds, record.negotiation.agreedAt)}
        </Anchor>
      )}
      {record.clauses.length > 0 && (
        <>
          <Text size="sm" id="contract-clauses">
            {t.clauses}
          </Text>
          <List size="sm" aria-labelledby="contract-clauses">
            {record.clauses.map((clause) => (
              <List.Item key={clause.key}>
                {t.clause(clause.name, clause.version, clause.variant, clause.outdated)}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}

function History({ record }: { record: ContractRecord }) {
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table aria-label={t.historyTable} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.historyAt}</Table.Th>
            <Table.Th>{t.historyEvent}</Table.Th>
            <Table.Th>{t.historyActor}</Table.Th>
            <Table.Th>{t.historyDetail}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {record.history.map((entry) => (
            <Table.Tr key={`${entry.at}-${entry.type}-${entry.detail ?? ''}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(new Date(entry.at))}</Table.Td>
              <Table.Td>{HISTORY_EVENT_LABELS[entry.type] ?? entry.type}</Table.Td>
              <Table.Td>{entry.actor}</Table.Td>
              <Table.Td>
                {entry.type === 'terminated' && entry.detail ? (
                  <Anchor component={Link} to={contractPath(entry.detail)}>
                    {CONTRACT_KIND_LABELS.kuendigung}
                  </Anchor>
                ) : (
                  (entry.detail ?? '')
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ContractRecordView({ record }: { record: ContractRecord }) {
  const kind = CONTRACT_KIND_LABELS[record.kind];
  return (
    <Stack maw={1100}>
      <BackLink />
      <Group gap="sm" align="center">
        <Title order={1}>
          {kind} {record.matchId}
        </Title>
        <ContractStatusBadge status={record.status} />
      </Group>
      <Text c="dimmed">
        {record.counterparty} · {COMPANY_LABELS[record.company]}
      </Text>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section title={t.parties}>
          <List spacing={4} listStyleType="none" ml={0} pl={0}>
            {record.parties.map((party) => (
              <List.Item key={`${party.role}-${party.name}`}>
                <Text span c="dimmed" size="sm">
                  {party.role}:
                </Text>{' '}
                <Text span fw={500}>
                  {party.name}
                </Text>
              </List.Item>
            ))}
          </List>
          <SimpleGrid cols={2} component="dl" m={0}>
            {/* A customer contract names the customer among its parties already; a project partner's
                contract does not, and the deal's customer is worth knowing there. */}
            {!record.parties.some((party) => party.role === 'Kunde' && party.name === record.customer) && (
              <Fact term={t.customer}>{record.customer || contractsTexts.none}</Fact>
            )}
            <Fact term={t.consultant}>{record.consultant || contractsTexts.none}</Fact>
          </SimpleGrid>
        </Section>

        <Section title={t.term}>
          <SimpleGrid cols={2} component="dl" m={0}>
            <Fact term={t.start}>{shownDate(record.startDate)}</Fact>
            <Fact term={t.end}>
              {record.endDate
                ? shownDate(record.endDate)
                : record.dateProblem
                  ? contractsTexts.none
                  : t.openEnded}
            </Fact>
            <Fact term={t.signedAt}>{signedDay(record.signedAt)}</Fact>
          </SimpleGrid>
          {record.dateProblem && (
            <Alert color="red" title={t.dateProblem}>
              {record.dateProblem}
            </Alert>
          )}
        </Section>

        {(record.rates.remote || record.rates.onsite || record.rates.hoursPerWeek) && (
          <Section title={t.rates}>
            <SimpleGrid cols={2} component="dl" m={0}>
              <Fact term={t.rateRemote(record.partnerType)}>{shownPrice(record.rates.remote)}</Fact>
              <Fact term={t.rateOnsite(record.partnerType)}>{shownPrice(record.rates.onsite)}</Fact>
              <Fact term={t.hoursPerWeek}>{shownHours(record.rates.hoursPerWeek)}</Fact>
            </SimpleGrid>
          </Section>
        )}

        <Section title={t.notice}>
          <SimpleGrid cols={2} component="dl" m={0}>
            <Fact term={t.noticeText}>{record.noticeText ?? contractsTexts.none}</Fact>
            <Fact term={t.noticeRule}>
              {record.noticeRule ? describeNoticeRule(record.noticeRule) : contractsTexts.noticeUnreadable}
            </Fact>
            <Fact term={t.noticeRuleSource}>{NOTICE_RULE_SOURCE_LABELS[record.noticeRuleSource]}</Fact>
            <Fact term={t.lastNoticeDay}>
              {record.lastNoticeDay ? shownDate(record.lastNoticeDay) : t.noLastNoticeDay}
            </Fact>
          </SimpleGrid>
          {record.noticeProblem && (
            <Alert color="red" title={t.noticeProblem}>
              <Text size="sm">{record.noticeProblem}</Text>
              {record.maySetNoticeRule && <Text size="sm">{t.noticeProblemHint}</Text>}
            </Alert>
          )}
        </Section>

        <Section title={t.source}>
          <Source record={record} />
        </Section>
      </SimpleGrid>

      {record.maySetNoticeRule && <NoticeRuleForm key={record.id} record={record} />}

      <Section title={t.chain}>
        <ContractChain record={record} />
      </Section>

      <Section title={t.history}>
        <History record={record} />
      </Section>
    </Stack>
  );
}

/** /vertraege/:contractId — one contract record with its parties, dates, notice, source, chain and history. */
export function ContractPage() {
  const { contractId = '' } = useParams();
  const record = useQuery(contractQueryOptions(contractId));
  if (record.data) return <ContractRecordView record={record.data} />;
  if (record.isError)
    return (
      <RecordLoadFailed
        back={<BackLink />}
        error={record.error}
        notFoundTitle={t.notFoundTitle}
        loadFailedTitle={t.loadFailed}
        onRetry={() => void record.refetch()}
      />
    );
  return <SectionLoader />;
}
