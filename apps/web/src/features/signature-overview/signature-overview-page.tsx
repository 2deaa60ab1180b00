import { Group, Loader, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  isLegal,
  OVERVIEW_FILTER_LABELS,
  OVERVIEW_FILTERS,
  type OverviewFilter,
  type OverviewQuery,
  overviewQuerySchema,
  type SessionUser,
} from '@vertragsgenerator/domain';
import { useRouteLoaderData } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { SESSION_ROUTE } from '@/lib/paths';
import { listAddress, useAddressQuery } from '@/lib/use-address-query';
import { useTypedValue } from '@/lib/use-typed-value';
import { OVERVIEW_QUERY_KEY, overviewQueryOptions } from './api';
import { OverviewRow } from './overview-row';
import { overviewTexts as t } from './texts';

function readOverviewQuery(params: URLSearchParams): OverviewQuery {
  const parsed = overviewQuerySchema.safeParse(Object.fromEntries(params));
  return parsed.success ? parsed.data : overviewQuerySchema.parse({});
}

/** The filter, search and page as the address keeps them, so that a reload or Back shows the same. */
function useOverviewQuery(): [OverviewQuery, (change: Partial<OverviewQuery>) => void] {
  const [query, change] = useAddressQuery(readOverviewQuery, listAddress);
  // Another filter or search starts on the first page.
  return [query, (update) => change((current) => ({ ...current, page: 1, ...update }), { replace: true })];
}

/**
 * /signaturen — Offene Signaturen: the envelopes a user created (legal staff: all), by
 * status, searchable, with each one's signers and what can be done now.
 */
export function SignatureOverviewPage() {
  const [query, update] = useOverviewQuery();
  const [search, setSearch] = useTypedValue(query.q, (q) => update({ q }));
  const user = useRouteLoaderData(SESSION_ROUTE) as SessionUser | null;
  const queryClient = useQueryClient();
  const overview = useQuery(overviewQueryOptions(query));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: OVERVIEW_QUERY_KEY });

  const counts = overview.data?.counts;
  const options = OVERVIEW_FILTERS.map((filter) => ({
    value: filter,
    label: counts ? `${OVERVIEW_FILTER_LABELS[filter]} (${counts[filter]})` : OVERVIEW_FILTER_LABELS[filter],
  }));
  const pages = overview.data ? Math.max(1, Math.ceil(overview.data.total / overview.data.pageSize)) : 1;

  return (
    <Stack>
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{isLegal(user?.permission) ? t.introLegal : t.intro}</Text>
      </div>
      <Group align="flex-end">
        <Select
          label={t.statusFilter}
          data={options}
          value={query.status}
          onChange={(value) => value && update({ status: value as OverviewFilter })}
          allowDeselect={false}
          w={260}
        />
        <TextInput
          label={t.search}
          placeholder={t.searchPlaceholder}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maxLength={200}
          w={320}
          type="search"
        />
        {overview.isFetching && <Loader size="sm" role="status" aria-label="Wird geladen" />}
      </Group>

      {overview.isError && (
        <LoadFailed title={t.loadFailed} error={overview.error} onRetry={() => void overview.refetch()} />
      )}

      {overview.data && (
        <>
          <Text size="sm" aria-live="polite">
            {t.total(overview.data.total)}
          </Text>
          {overview.data.envelopes.length === 0 ? (
            <Text>{query.q ? t.emptySearch(query.q) : t.empty}</Text>
          ) : (
            <Table.ScrollContainer minWidth={1000}>
              <Table verticalSpacing="sm" aria-label={t.table} striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.match}</Table.Th>
                    <Table.Th>{t.document}</Table.Th>
                    <Table.Th>{t.status}</Table.Th>
                    <Table.Th>{t.signers}</Table.Th>
                    <Table.Th>{t.lastEvent}</Table.Th>
                    <Table.Th>{t.actions}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {overview.data.envelopes.map((envelope) => (
                    <OverviewRow key={envelope.id} envelope={envelope} onChanged={refresh} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pages > 1 && (
            <Pagination
              total={pages}
              value={query.page}
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
    </Stack>
  );
}
