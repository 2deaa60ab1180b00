import {
  Alert,
  Button,
  Group,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deletionRunLabel,
  formatPeriod,
  type LegalHold,
  type PeriodUnit,
  RETENTION_RULE_LABELS,
  type RetentionRule,
  type RetentionRuleName,
  type RetentionRun,
} from '@vertragsgenerator/domain';
import { useId, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY } from './api';
import { changeRetentionRule, liftLegalHold, placeLegalHold, retentionQueryOptions } from './privacy-api';
import { privacyTexts } from './privacy-texts';
import { dateTime } from './texts';

const t = privacyTexts.retention;
const when = (iso: string) => dateTime.format(new Date(iso));

/** /verwaltung → Aufbewahrung: the rules with their periods, the legal holds and the last deletion runs. */
export function RetentionTab() {
  const overview = useQuery(retentionQueryOptions);
  if (overview.isPending) return <SectionLoader />;
  if (overview.isError) return <Alert color="red">{errorMessage(overview.error)}</Alert>;
  return (
    <Stack gap="xl" maw={1100}>
      <Rules rules={overview.data.rules} />
      <Holds holds={overview.data.holds} />
      <Runs runs={overview.data.runs} />
    </Stack>
  );
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
}

function Rules({ rules }: { rules: RetentionRule[] }) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} id={headingId}>
        {t.rulesHeading}
      </Title>
      <Text size="sm">{t.rulesIntro}</Text>
      <Table.ScrollContainer minWidth={800}>
        <Table striped aria-labelledby={headingId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.rule}</Table.Th>
              <Table.Th>{t.from}</Table.Th>
              <Table.Th>{t.period}</Table.Th>
              <Table.Th>{t.changed}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rules.map((rule) => (
              <Table.Tr key={rule.rule}>
                <Table.Td>{rule.label}</Table.Td>
                <Table.Td>{rule.start}</Table.Td>
                <Table.Td>
                  {rule.editable ? <PeriodEditor rule={rule} /> : formatPeriod(rule.period)}
                </Table.Td>
                <Table.Td>
                  {rule.changedBy && rule.changedAt
                    ? t.changedBy(rule.changedBy, when(rule.changedAt))
                    : t.defaultValue}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function PeriodEditor({ rule }: { rule: RetentionRule }) {
  const refresh = useRefresh();
  const [value, setValue] = useState<number | string>(rule.period?.value ?? 1);
  const [unit, setUnit] = useState<PeriodUnit>(rule.period?.unit ?? 'years');
  const change = useMutation({
    mutationFn: () => changeRetentionRule(rule.rule as RetentionRuleName, { value: Number(value), unit }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t.saved(rule.label, { value: Number(value), unit }) });
      void refresh();
    },
  });
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
        <NumberInput
          aria-label={t.value(rule.label)}
          value={value}
          onChange={setValue}
          w={90}
          size="xs"
          allowDecimal={false}
          error={change.isError}
        />
        <Select
          aria-label={t.unit(RETENTION_RULE_LABELS[rule.rule])}
          data={t.units}
          value={unit}
          onChange={(next) => next && setUnit(next as PeriodUnit)}
          allowDeselect={false}
          w={110}
          size="xs"
        />
        <Button
          size="xs"
          onClick={() => change.mutate()}
          loading={change.isPending}
          aria-label={t.saveLabel(rule.label)}
        >
          {t.save}
        </Button>
      </Group>
      {change.isError && (
        <Text size="xs" c="red" role="alert">
          {errorMessage(change.error)}
        </Text>
      )}
    </Stack>
  );
}

function Holds({ holds }: { holds: LegalHold[] }) {
  const headingId = useId();
  const refresh = useRefresh();
  const [matchId, setMatchId] = useState('');
  const [reason, setReason] = useState('');
  const place = useMutation({
    mutationFn: () => placeLegalHold(matchId, reason),
    onSuccess: (hold) => {
      notifications.show({ color: 'green', message: t.placed(hold.matchId) });
      setMatchId('');
      setReason('');
      void refresh();
    },
  });
  const lift = useMutation({
    mutationFn: (hold: LegalHold) => liftLegalHold(hold.id),
    onSuccess: (hold) => {
      notifications.show({ color: 'green', message: t.lifted(hold.matchId) });
      void refresh();
    },
  });
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} id={headingId}>
        {t.holdsHeading}
      </Title>
      <Text size="sm">{t.holdsIntro}</Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          place.mutate();
        }}
      >
        <Group align="flex-end">
          <TextInput
            label={t.matchId}
            value={matchId}
            onChange={(e) => setMatchId(e.currentTarget.value)}
            w={160}
          />
          <TextInput
            label={t.reason}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={place.isPending}>
            {t.place}
          </Button>
        </Group>
      </form>
      {place.isError && <Alert color="red">{errorMessage(place.error)}</Alert>}
      {lift.isError && <Alert color="red">{errorMessage(lift.error)}</Alert>}
      {holds.length === 0 ? (
        <Text c="dimmed">{t.noHolds}</Text>
      ) : (
        <Table striped aria-labelledby={headingId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.matchId}</Table.Th>
              <Table.Th>{t.reason}</Table.Th>
              <Table.Th>{t.changed}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t.action}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {holds.map((hold) => (
              <Table.Tr key={hold.id}>
                <Table.Td>{hold.matchId}</Table.Td>
                <Table.Td>{hold.reason}</Table.Td>
                <Table.Td>
                  <Text size="sm">{t.holdPlaced(hold.placedBy, when(hold.placedAt))}</Text>
                  {hold.liftedBy && hold.liftedAt && (
                    <Text size="sm">{t.holdLifted(hold.liftedBy, when(hold.liftedAt))}</Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {hold.liftedAt === null && (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => lift.mutate(hold)}
                      aria-label={t.liftLabel(hold.matchId)}
                    >
                      {t.lift}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function Runs({ runs }: { runs: RetentionRun[] }) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} id={headingId}>
        {t.runsHeading}
      </Title>
      {runs.length === 0 ? (
        <Text c="dimmed">{t.noRuns}</Text>
      ) : (
        <Table striped aria-labelledby={headingId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.runStarted}</Table.Th>
              <Table.Th>{t.runFinished}</Table.Th>
              <Table.Th>{t.runDeleted}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.map((run) => (
              <Table.Tr key={run.id}>
                <Table.Td>{when(run.startedAt)}</Table.Td>
                <Table.Td>{run.finishedAt ? when(run.finishedAt) : (run.error ?? t.running)}</Table.Td>
                <Table.Td>
                  {Object.keys(run.deleted).length === 0
                    ? t.nothing
                    : Object.entries(run.deleted)
                        .map(([rule, n]) => `${deletionRunLabel(rule)}: ${n}`)
                        .join(' · ')}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
