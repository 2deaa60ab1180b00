import { Group, Loader, Pagination, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ContractSort, isLegal, type SessionUser } from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { useRouteLoaderData } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { SESSION_ROUTE } from '@/lib/paths';
import { contractsQueryOptions } from './api';
import { ContractFilters } from './contract-filters';
import { ContractsExport } from './contracts-export';
import { ContractsTable } from './contracts-table';
import { contractsTexts as t } from './texts';
import { isFiltered, useContractsQuery } from './use-contracts-query';

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
            <ContractsExport query={query} />
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
