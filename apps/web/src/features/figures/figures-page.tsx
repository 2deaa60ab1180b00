import '@mantine/charts/styles.css';
import { Alert, Group, Loader, Radio, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  COMPANIES,
  type ContractFiguresQuery,
  contractFiguresQuerySchema,
  FIGURES_COMPANY_LABELS,
  type SessionUser,
} from '@vertragsgenerator/domain';
import { useRouteLoaderData } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { SESSION_ROUTE } from '@/lib/paths';
import { useAddressQuery } from '@/lib/use-address-query';
import { figuresQueryOptions } from './api';
import { ApprovalsFigure, DeclinesFigure, EndingsFigure, LeadTimesFigure, WaitingFigure } from './figures';
import { dayOf } from './format';
import { figuresTexts as t } from './texts';

const PERIODS = [6, 12, 24] as const;
const ALL = 'all';

const DEFAULT_QUERY = contractFiguresQuerySchema.parse({});
const queryOf = (params: URLSearchParams): ContractFiguresQuery => {
  const parsed = contractFiguresQuerySchema.safeParse(Object.fromEntries(params));
  return parsed.success ? parsed.data : DEFAULT_QUERY;
};

function figuresAddress(query: ContractFiguresQuery): URLSearchParams {
  const search = new URLSearchParams();
  if (query.company) search.set('company', query.company);
  if (query.months !== DEFAULT_QUERY.months) search.set('months', String(query.months));
  return search;
}

/** Company and period as the address keeps them, so that a reload or a shared link shows the same. */
function useFiguresQuery(): [ContractFiguresQuery, (change: Partial<ContractFiguresQuery>) => void] {
  const [query, change] = useAddressQuery(queryOf, figuresAddress);
  return [query, (update) => change((current) => ({ ...current, ...update }), { replace: true })];
}

/** /auswertung — the figures of the contract work, for leaders and legal staff. */
export function FiguresPage() {
  const user = useRouteLoaderData(SESSION_ROUTE) as SessionUser | null;
  const allowed = user?.permission === 2 || user?.permission === 3;
  return (
    <Stack gap="xl">
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{t.intro}</Text>
      </div>
      {allowed ? (
        <Figures />
      ) : (
        <Alert color="yellow" title={t.noAccess}>
          {t.noAccessText}
        </Alert>
      )}
    </Stack>
  );
}

function Figures() {
  const [query, update] = useFiguresQuery();
  const figures = useQuery(figuresQueryOptions(query));
  return (
    <>
      <Group align="flex-start" gap="xl" role="group" aria-label={t.filters}>
        <Radio.Group
          label={t.company}
          value={query.company ?? ALL}
          onChange={(value) =>
            update({ company: value === ALL ? undefined : (value as ContractFiguresQuery['company']) })
          }
        >
          <Group mt="xs">
            <Radio value={ALL} label={t.allCompanies} />
            {COMPANIES.map((company) => (
              <Radio key={company} value={company} label={FIGURES_COMPANY_LABELS[company]} />
            ))}
          </Group>
        </Radio.Group>
        <Radio.Group
          label={t.period}
          value={String(query.months)}
          onChange={(value) => update({ months: Number(value) })}
        >
          <Group mt="xs">
            {PERIODS.map((months) => (
              <Radio key={months} value={String(months)} label={t.periodMonths(months)} />
            ))}
          </Group>
        </Radio.Group>
      </Group>
      {figures.isError ? (
        <LoadFailed title={t.loadFailed} error={figures.error} onRetry={() => void figures.refetch()} />
      ) : !figures.data ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text>{t.loading}</Text>
        </Group>
      ) : (
        <Stack gap={48} aria-busy={figures.isPlaceholderData}>
          <Text size="sm" c="dimmed">
            {t.asOf(dayOf(figures.data.today))}
          </Text>
          <EndingsFigure figures={figures.data} />
          <LeadTimesFigure figures={figures.data} />
          <ApprovalsFigure figures={figures.data} />
          <WaitingFigure figures={figures.data} />
          <DeclinesFigure figures={figures.data} />
        </Stack>
      )}
    </>
  );
}
