import {
  Alert,
  Button,
  Group,
  Loader,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  APPROVAL_LIST_FILTER_LABELS,
  APPROVAL_LIST_FILTERS,
  type ApprovalListFilter,
  type ApprovalListQuery,
  type ApprovalRequest,
  approvalListQuerySchema,
  formatDateTime,
  type SessionUser,
} from '@vertragsgenerator/domain';
import { useRouteLoaderData } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { SESSION_ROUTE } from '@/lib/paths';
import { listAddress, useAddressQuery } from '@/lib/use-address-query';
import { useTypedValue } from '@/lib/use-typed-value';
import { approvalQueryOptions, approvalsQueryOptions } from './api';
import { ApprovalBatchGroups } from './approval-batch-groups';
import { ApprovalDetail } from './approval-detail';
import { ApprovalStatusBadge } from './approval-status-badge';
import { ReasonList } from './reason-list';
import { approvalTexts as t } from './texts';

/** The address's parameter naming the request under review. */
const SELECTED_PARAM = 'anfrage';

/** The list's view and the request under review. */
interface ApprovalsView {
  query: ApprovalListQuery;
  selected: string | null;
}

function readView(params: URLSearchParams): ApprovalsView {
  const parsed = approvalListQuerySchema.safeParse(Object.fromEntries(params));
  return {
    query: parsed.success ? parsed.data : approvalListQuerySchema.parse({}),
    selected: params.get(SELECTED_PARAM),
  };
}

function viewAddress({ query, selected }: ApprovalsView): URLSearchParams {
  const search = listAddress(query);
  if (selected) search.set(SELECTED_PARAM, selected);
  return search;
}

/**
 * The filter, search, page and the request under review as the address keeps them, so that a reload
 * or Back shows the same.
 */
function useApprovalsQuery() {
  const [{ query, selected }, change] = useAddressQuery(readView, viewAddress);
  const replace = { replace: true };
  return {
    query,
    selected,
    // Another filter starts on the first page, with nothing under review.
    update: (update: Partial<ApprovalListQuery>) =>
      change((view) => ({ query: { ...view.query, page: 1, ...update }, selected: null }), replace),
    // So does a search, but it keeps the request under review: the search fires a moment after the
    // last key, and a request chosen in that moment must stay open.
    search: (q: string) => change((view) => ({ ...view, query: { ...view.query, page: 1, q } }), replace),
    select: (id: string | null) => change((view) => ({ ...view, selected: id }), replace),
  };
}

/**
 * /freigaben: the batches whose deals are asked for together (decided on their own page), then the
 * single requests the user may decide (and, by filter, those decided), each with who asks, the match and
 * the reasons; one at a time under review with its document and decision.
 */
export function ApprovalsPage() {
  const { query, selected, update, search: searchFor, select } = useApprovalsQuery();
  const [search, setSearch] = useTypedValue(query.q, searchFor);
  const user = useRouteLoaderData(SESSION_ROUTE) as SessionUser | null;
  const list = useQuery(approvalsQueryOptions(query));

  const counts = list.data?.counts;
  const options = APPROVAL_LIST_FILTERS.map((filter) => ({
    value: filter,
    label: counts
      ? `${APPROVAL_LIST_FILTER_LABELS[filter]} (${counts[filter]})`
      : APPROVAL_LIST_FILTER_LABELS[filter],
  }));
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;
  const shown = selected ? list.data?.requests.find((request) => request.id === selected) : undefined;

  return (
    <Stack maw={1200}>
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{t.intro}</Text>
      </div>
      {/* The server names who may approve under the current rules; the list shows others their own requests. */}
      {user && !user.approver && (
        <Alert color="blue" title={t.notApproverTitle}>
          <Text size="sm">{t.notApprover}</Text>
        </Alert>
      )}
      <Group align="flex-end">
        <Select
          label={t.statusFilter}
          data={options}
          value={query.status}
          onChange={(value) => value && update({ status: value as ApprovalListFilter })}
          allowDeselect={false}
          w={220}
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
        {list.isFetching && <Loader size="sm" role="status" aria-label="Wird geladen" />}
      </Group>

      {list.isError && (
        <LoadFailed title={t.loadFailed} error={list.error} onRetry={() => void list.refetch()} />
      )}

      {list.data && list.data.batches.length > 0 && (
        <>
          <ApprovalBatchGroups groups={list.data.batches} />
          <Title order={2} size="h3">
            {t.groups.singleHeading}
          </Title>
        </>
      )}

      {list.data && (
        <>
          <Text size="sm" aria-live="polite">
            {t.total(list.data.total)}
          </Text>
          {list.data.requests.length === 0 ? (
            <Text>
              {query.q ? t.emptySearch(query.q) : query.status === 'open' ? t.empty : t.emptyFilter}
            </Text>
          ) : (
            <RequestTable requests={list.data.requests} selected={selected} onReview={(id) => select(id)} />
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
      {selected && (
        <Reviewed
          key={selected}
          id={selected}
          shown={shown}
          userEmail={user?.email ?? null}
          onClose={() => select(null)}
        />
      )}
    </Stack>
  );
}

/** The request under review, loaded by its id: a link from a mail names one that may not be listed. */
function Reviewed({
  id,
  shown,
  userEmail,
  onClose,
}: {
  id: string;
  shown: ApprovalRequest | undefined;
  userEmail: string | null;
  onClose: () => void;
}) {
  const request = useQuery(approvalQueryOptions(id, shown));
  if (request.data) return <ApprovalDetail request={request.data} userEmail={userEmail} onClose={onClose} />;
  if (request.isError) {
    return (
      <LoadFailed title={t.detail.loadFailed} error={request.error} onRetry={() => void request.refetch()} />
    );
  }
  return <SectionLoader />;
}

function RequestTable({
  requests,
  selected,
  onReview,
}: {
  requests: readonly ApprovalRequest[];
  selected: string | null;
  onReview: (id: string) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" aria-label={t.table} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.match}</Table.Th>
            <Table.Th>{t.document}</Table.Th>
            <Table.Th>{t.requestedBy}</Table.Th>
            <Table.Th>{t.reasons}</Table.Th>
            <Table.Th>{t.status}</Table.Th>
            <Table.Th>{t.actions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {requests.map((request) => (
            <Table.Tr key={request.id} aria-current={request.id === selected ? 'true' : undefined}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {request.matchId}
                </Text>
                <Text size="xs">{request.customer}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{request.fileName}</Text>
                <Text size="xs" c="dimmed">
                  {request.envelopeId ? t.envelope : t.download} · {t.version(request.documentVersion)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{request.requestedBy.name}</Text>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {t.on(formatDateTime(new Date(request.requestedAt)))}
                </Text>
              </Table.Td>
              <Table.Td>
                <ReasonList request={request} size="xs" />
              </Table.Td>
              <Table.Td>
                <ApprovalStatusBadge status={request.status} />
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant={request.status === 'open' && request.mayDecide ? 'filled' : 'default'}
                  aria-label={t.reviewFor(request.fileName)}
                  onClick={() => onReview(request.id)}
                >
                  {t.review}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
