import { Button, Group, Loader, Pagination, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  CATALOGUE,
  type ContractKind,
  type ContractRow,
  type ContractSort,
  catalogueEntry,
  documentKeys,
  isExtension,
  isLegal,
  mayGenerate,
  type PermissionLevel,
  type SessionUser,
} from '@vertragsgenerator/domain';
import { type ReactNode, useId } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { newBatchPath, SESSION_ROUTE } from '@/lib/paths';
import { contractsQueryOptions } from './api';
import { ContractFilters } from './contract-filters';
import { ContractsExport } from './contracts-export';
import { ContractsTable } from './contracts-table';
import { contractsTexts as t } from './texts';
import { isFiltered, useContractsQuery } from './use-contracts-query';

/** The contracts an extension (Verlängerung) extends. */
const EXTENDABLE_KINDS: readonly ContractKind[] = ['rahmenvertrag', 'einzelauftrag', 'verlaengerung'];

/**
 * The batch of extensions for the rows shown, when they are all contracts of one company and one side:
 * German, since a row does not say its language (the batch's page lets the user change it). Null otherwise.
 */
function extensionBatchPath(rows: readonly ContractRow[], level: PermissionLevel | null | undefined) {
  const [first] = rows;
  if (!first) return null;
  const fits = rows.every(
    (row) =>
      EXTENDABLE_KINDS.includes(row.kind) &&
      row.company === first.company &&
      row.partnerType === first.partnerType,
  );
  if (!fits) return null;
  const key = documentKeys.agreement({
    agreement: 'extension',
    language: 'de',
    company: first.company,
    partner: first.partnerType,
  });
  const entry = catalogueEntry(key);
  if (!entry || !mayGenerate(level, entry)) return null;
  return newBatchPath(key, [...new Set(rows.map((row) => row.matchId))]);
}

/**
 * „Verlängern“: the contracts shown, extended as one batch (/serien, prefilled). For whoever may make
 * extensions, once the list is narrowed by a filter; disabled, and saying why, while the rows are of
 * several companies or sides, or not all contracts an extension extends.
 */
function ExtendButton({
  rows,
  level,
}: {
  rows: readonly ContractRow[];
  level: PermissionLevel | null | undefined;
}) {
  const hintId = useId();
  const path = extensionBatchPath(rows, level);
  if (path) {
    return (
      <Button component={Link} to={path} size="sm" title={t.extendLabel}>
        {t.extend}
      </Button>
    );
  }
  return (
    <Stack gap={4} align="flex-end">
      <Button size="sm" disabled aria-describedby={hintId}>
        {t.extend}
      </Button>
      <Text id={hintId} size="xs" c="dimmed" maw={320} ta="right">
        {t.extendNotPossible}
      </Text>
    </Stack>
  );
}

/** Whether `level` may make some extension: legal staff, as the catalogue says. */
const mayExtend = (level: PermissionLevel | null | undefined) =>
  [...CATALOGUE.values()].some((entry) => isExtension(entry) && mayGenerate(level, entry));

/**
 * /vertraege — Verträge: the running contracts, filtered, searched, sorted and paged as the address
 * says, with their export. Which records a user sees is the server's decision (a consultant: their deals).
 */
export function ContractsPage({
  below,
}: {
  /** What `app/` places under the list (the calendar subscription). */ below?: ReactNode;
}) {
  const [query, update] = useContractsQuery();
  const user = useRouteLoaderData(SESSION_ROUTE) as SessionUser | null;
  const contracts = useQuery(contractsQueryOptions(query));
  const data = contracts.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const readsAll = isLegal(user?.permission) || user?.permission === 3;

  const sortBy = (column: ContractSort) =>
    update({
      sort: column,
      direction: query.sort === column && query.direction === 'asc' ? 'desc' : 'asc',
    });

  return (
    <Stack>
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{readsAll || !user ? t.intro : t.introConsultant}</Text>
      </div>
      <ContractFilters query={query} update={update} />

      {contracts.isError && (
        <LoadFailed title={t.loadFailed} error={contracts.error} onRetry={() => void contracts.refetch()} />
      )}

      {data && (
        <>
          <Group justify="space-between" align="flex-end">
            <Group gap="sm">
              <Text size="sm" aria-live="polite">
                {t.total(data.total)}
              </Text>
              {contracts.isFetching && <Loader size="xs" role="status" aria-label="Wird geladen" />}
            </Group>
            <Group gap="sm" align="flex-start">
              {mayExtend(user?.permission) && isFiltered(query) && data.rows.length > 0 && (
                <ExtendButton rows={data.rows} level={user?.permission} />
              )}
              <ContractsExport query={query} />
            </Group>
          </Group>
          {data.rows.length === 0 ? (
            <Text>{isFiltered(query) ? t.emptyFiltered : t.empty}</Text>
          ) : (
            <ContractsTable rows={data.rows} query={query} onSort={sortBy} />
          )}
          {pages > 1 && (
            <Pagination
              total={pages}
              value={Math.min(query.page, pages)}
              onChange={(page) => update({ page })}
              getControlProps={(control) => ({
                'aria-label': `${control === 'previous' ? 'Vorherige' : 'Nächste'} Seite`,
              })}
              getItemProps={(page) => ({ 'aria-label': `Seite ${page}` })}
              aria-label={t.pagination}
            />
          )}
        </>
      )}
      {!data && contracts.isPending && <Loader size="sm" role="status" aria-label="Wird geladen" />}
      {below}
    </Stack>
  );
}
