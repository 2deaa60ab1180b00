import { Button, Checkbox, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import {
  COMPANIES,
  CONTRACT_KIND_LABELS,
  CONTRACT_KINDS,
  CONTRACT_STATUS_LABELS,
  CONTRACT_STATUSES,
  type ContractsQuery,
} from '@vertragsgenerator/domain';
import { useTypedValue } from '@/lib/use-typed-value';
import { COMPANY_LABELS, contractsTexts as t } from './texts';
import { isFiltered, NO_FILTERS, type UpdateContractsQuery } from './use-contracts-query';

const ALL = 'all';

function TextFilter(props: {
  label: string;
  value: string;
  placeholder?: string;
  type?: 'search' | 'text';
  onCommit: (value: string, continued: boolean) => void;
}) {
  const [typed, setTyped] = useTypedValue(props.value, props.onCommit);
  return (
    <TextInput
      label={props.label}
      placeholder={props.placeholder}
      type={props.type ?? 'text'}
      value={typed}
      onChange={(event) => setTyped(event.currentTarget.value)}
      maxLength={200}
    />
  );
}

function DaysFilter(props: {
  label: string;
  value: number | undefined;
  onCommit: (days: number | undefined, continued: boolean) => void;
}) {
  const [typed, setTyped] = useTypedValue(
    props.value === undefined ? '' : String(props.value),
    (text, continued) => props.onCommit(text === '' ? undefined : Number(text), continued),
  );
  return (
    <NumberInput
      label={props.label}
      placeholder={t.daysPlaceholder}
      value={typed === '' ? '' : Number(typed)}
      onChange={(value) => setTyped(String(value))}
      min={0}
      max={3650}
      clampBehavior="strict"
      allowDecimal={false}
      allowNegative={false}
      hideControls
    />
  );
}

function ChoiceFilter<T extends string>(props: {
  label: string;
  value: T | undefined;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T | undefined) => void;
}) {
  return (
    <Select
      label={props.label}
      data={[
        { value: ALL, label: t.all },
        ...props.options.map((option) => ({ value: option, label: props.labels[option] })),
      ]}
      value={props.value ?? ALL}
      onChange={(value) => props.onChange(value === null || value === ALL ? undefined : (value as T))}
      allowDeselect={false}
    />
  );
}

/** The filters of /vertraege, each kept in the address. */
export function ContractFilters({ query, update }: { query: ContractsQuery; update: UpdateContractsQuery }) {
  return (
    <Stack gap="sm" component="section" aria-label={t.filters}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <TextFilter
          label={t.search}
          placeholder={t.searchPlaceholder}
          type="search"
          value={query.q}
          onCommit={(q, replace) => update({ q }, { replace })}
        />
        <ChoiceFilter
          label={t.company}
          value={query.company}
          options={COMPANIES}
          labels={COMPANY_LABELS}
          onChange={(company) => update({ company })}
        />
        <TextFilter
          label={t.customer}
          value={query.customer}
          onCommit={(customer, replace) => update({ customer }, { replace })}
        />
        <TextFilter
          label={t.consultant}
          value={query.consultant}
          onCommit={(consultant, replace) => update({ consultant }, { replace })}
        />
        <ChoiceFilter
          label={t.kind}
          value={query.kind}
          options={CONTRACT_KINDS}
          labels={CONTRACT_KIND_LABELS}
          onChange={(kind) => update({ kind })}
        />
        <ChoiceFilter
          label={t.status}
          value={query.status}
          options={CONTRACT_STATUSES}
          labels={CONTRACT_STATUS_LABELS}
          onChange={(status) => update({ status })}
        />
        <DaysFilter
          label={t.endsWithin}
          value={query.endsWithin}
          onCommit={(endsWithin, replace) => update({ endsWithin }, { replace })}
        />
        <DaysFilter
          label={t.noticeWithin}
          value={query.noticeWithin}
          onCommit={(noticeWithin, replace) => update({ noticeWithin }, { replace })}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Checkbox
          label={t.withoutFramework}
          checked={query.withoutFramework === true}
          onChange={(event) => update({ withoutFramework: event.currentTarget.checked || undefined })}
        />
      </SimpleGrid>
      {isFiltered(query) && (
        <Button
          variant="subtle"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => update(NO_FILTERS)}
        >
          {t.resetFilters}
        </Button>
      )}
    </Stack>
  );
}
