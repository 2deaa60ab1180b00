import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  APPROVAL_COMPANIES,
  APPROVAL_COMPANY_LABELS,
  type ApprovalRules,
  type ApprovalRulesView,
  type ApproverGroup,
  approvalRulesSchema,
  type Company,
} from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY, approvalRulesQueryOptions, changeApprovalRules } from './api';
import { adminTexts, dateTime } from './texts';

const t = adminTexts.approvalRules;

/** Why legal staff see the deputies but cannot change them (the server refuses it too). */
const DEPUTIES_BY_ADMINISTRATORS = 'Vertretungen benennt nur Team-Operations (Administration).';

/** The rules as the inputs hold them: a cleared number is empty, the deputies one address a line. */
interface Draft {
  marginEnabled: boolean;
  /** A number, or the input's text while it is not one yet (`12,` on the way to `12,5`). */
  thresholds: Record<Company, number | string>;
  editedText: boolean;
  markedParagraphs: boolean;
  documentTypes: string[];
  groups: ApproverGroup[];
  legalFirst: boolean;
  escalationWorkingDays: number | string;
  deputies: string;
}

function draftOf(rules: ApprovalRules): Draft {
  return {
    marginEnabled: rules.margin.enabled,
    thresholds: { ...rules.margin.thresholds },
    editedText: rules.editedText,
    markedParagraphs: rules.markedParagraphs,
    documentTypes: [...rules.documentTypes],
    groups: [...rules.approvers.order],
    legalFirst: rules.approvers.order[0] === 'legal' && rules.approvers.order.length > 1,
    escalationWorkingDays: rules.approvers.escalationWorkingDays,
    deputies: rules.deputies.join('\n'),
  };
}

/** What the input holds as a number; anything that is not one fails the schema with its message. */
function number(value: number | string): number {
  if (typeof value === 'number') return value;
  return value.trim() === '' ? Number.NaN : Number(value.replace(',', '.'));
}

function rulesOf(draft: Draft): ApprovalRules {
  const both = draft.groups.includes('leaders') && draft.groups.includes('legal');
  const order: ApproverGroup[] = both
    ? draft.legalFirst
      ? ['legal', 'leaders']
      : ['leaders', 'legal']
    : draft.groups.filter((group) => group === 'leaders' || group === 'legal');
  return {
    margin: {
      enabled: draft.marginEnabled,
      thresholds: {
        wm: number(draft.thresholds.wm),
        we: number(draft.thresholds.we),
        wp: number(draft.thresholds.wp),
      },
    },
    editedText: draft.editedText,
    markedParagraphs: draft.markedParagraphs,
    documentTypes: draft.documentTypes,
    approvers: { order, escalationWorkingDays: number(draft.escalationWorkingDays) },
    deputies: draft.deputies
      .split(/[\n,;]/)
      .map((line) => line.trim())
      .filter(Boolean),
  };
}

type FieldErrors = Readonly<Record<string, string>>;

/** The first message per field, keyed by the rules' paths (`margin.thresholds.wm`, `deputies`, …). */
function errorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    // A deputy's line or a document type is shown at its input as a whole.
    const path = issue.path.map(String).filter((part) => !/^\d+$/.test(part));
    const key = path.join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** The server's `fields` of a 400, with or without the body's `rules.` in front. */
function serverErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiRequestError)) return {};
  return errorsOf(
    Object.entries(error.fields).map(([key, messages]) => ({
      path: key.replace(/^rules\./, '').split('.'),
      message: messages[0] ?? '',
    })),
  );
}

/**
 * /verwaltung → Freigaben: when a contract needs an approval (margin per company, edited text,
 * changed marked paragraphs, document types) and who gives it. The server keeps each change with its
 * audit entry.
 */
export function ApprovalRulesTab() {
  const view = useQuery(approvalRulesQueryOptions);
  if (view.isPending) return <SectionLoader />;
  if (view.isError) return <Alert color="red">{errorMessage(view.error)}</Alert>;
  // Keyed by version: a saved or reloaded set of rules starts a fresh form.
  return <RulesForm key={view.data.version} view={view.data} />;
}

function RulesForm({ view }: { view: ApprovalRulesView }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(view.rules));
  const [attempted, setAttempted] = useState(false);
  const save = useMutation({
    mutationFn: (rules: ApprovalRules) => changeApprovalRules({ rules, version: view.version }),
    onSuccess: (saved) => {
      queryClient.setQueryData(approvalRulesQueryOptions.queryKey, saved);
      // The audit log holds the change now.
      void queryClient.invalidateQueries({ queryKey: [...ADMINISTRATION_QUERY_KEY, 'audit'] });
      notifications.show({ color: 'green', message: t.saved });
    },
  });
  const parsed = approvalRulesSchema.safeParse(rulesOf(draft));
  const clientErrors: FieldErrors = attempted && !parsed.success ? errorsOf(parsed.error.issues) : {};
  const fromServer = serverErrors(save.error);
  const errorFor = (field: string) => clientErrors[field] ?? fromServer[field];
  const disabled = !view.mayChange || save.isPending;
  const both = draft.groups.length === 2;
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    save.reset();
    if (parsed.success) save.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={760}>
        <Text>{t.intro}</Text>
        <Text size="sm" c="dimmed">
          {view.changedBy && view.changedAt
            ? t.changed(view.changedBy, dateTime.format(new Date(view.changedAt)))
            : t.unchanged}
        </Text>
        {!view.mayChange && <Alert color="blue">{t.readOnly}</Alert>}
        <Fieldset legend={t.marginHeading} disabled={disabled}>
          <Stack>
            <Switch
              label={t.marginSwitch}
              description={t.marginDescription}
              checked={draft.marginEnabled}
              onChange={(event) => change({ marginEnabled: event.currentTarget.checked })}
            />
            <Group align="flex-start">
              {APPROVAL_COMPANIES.map((company) => (
                <NumberInput
                  key={company}
                  label={t.threshold(APPROVAL_COMPANY_LABELS[company])}
                  value={draft.thresholds[company]}
                  onChange={(value) =>
                    change({
                      thresholds: { ...draft.thresholds, [company]: value },
                    })
                  }
                  decimalSeparator=","
                  decimalScale={2}
                  // Not clamped: a value out of range is named, not silently changed.
                  clampBehavior="none"
                  disabled={disabled || !draft.marginEnabled}
                  error={errorFor(`margin.thresholds.${company}`)}
                  w={200}
                />
              ))}
            </Group>
          </Stack>
        </Fieldset>
        <Fieldset legend={t.textHeading} disabled={disabled}>
          <Stack>
            <Switch
              label={t.editedText}
              description={t.editedTextDescription}
              checked={draft.editedText}
              onChange={(event) => change({ editedText: event.currentTarget.checked })}
            />
            <Switch
              label={t.markedParagraphs}
              description={t.markedParagraphsDescription}
              checked={draft.markedParagraphs}
              onChange={(event) => change({ markedParagraphs: event.currentTarget.checked })}
            />
            <MultiSelect
              label={t.documentTypes}
              description={t.documentTypesDescription}
              placeholder={draft.documentTypes.length === 0 ? t.documentTypesPlaceholder : undefined}
              data={view.documentTypeOptions}
              value={draft.documentTypes}
              onChange={(documentTypes) => change({ documentTypes })}
              searchable
              clearable
              disabled={disabled}
              error={errorFor('documentTypes')}
              nothingFoundMessage="–"
            />
          </Stack>
        </Fieldset>
        <Fieldset legend={t.approversHeading} disabled={disabled}>
          <Stack>
            <Checkbox.Group
              label={t.approversGroups}
              description={t.approversDescription}
              value={draft.groups}
              onChange={(groups) => change({ groups: groups as ApproverGroup[] })}
              error={errorFor('approvers.order')}
            >
              <Group mt="xs">
                <Checkbox value="leaders" label={t.leaders} disabled={disabled} />
                <Checkbox value="legal" label={t.legal} disabled={disabled} />
              </Group>
            </Checkbox.Group>
            {both && (
              <Group align="flex-start">
                <Select
                  label={t.order}
                  data={[
                    { value: 'leaders', label: t.orderLeadersFirst },
                    { value: 'legal', label: t.orderLegalFirst },
                  ]}
                  value={draft.legalFirst ? 'legal' : 'leaders'}
                  onChange={(value) => change({ legalFirst: value === 'legal' })}
                  allowDeselect={false}
                  disabled={disabled}
                  w={260}
                />
                <NumberInput
                  label={t.escalationDays}
                  value={draft.escalationWorkingDays}
                  onChange={(value) =>
                    change({ escalationWorkingDays: typeof value === 'number' ? value : '' })
                  }
                  allowDecimal={false}
                  clampBehavior="none"
                  disabled={disabled}
                  error={errorFor('approvers.escalationWorkingDays')}
                  w={300}
                />
              </Group>
            )}
            <Textarea
              label={t.deputies}
              description={
                view.mayChange && !view.mayNameDeputies
                  ? `${t.deputiesDescription} ${DEPUTIES_BY_ADMINISTRATORS}`
                  : t.deputiesDescription
              }
              value={draft.deputies}
              onChange={(event) => change({ deputies: event.currentTarget.value })}
              rows={3}
              disabled={disabled || !view.mayNameDeputies}
              error={errorFor('deputies')}
            />
          </Stack>
        </Fieldset>
        {Object.keys(clientErrors).length > 0 && <Alert color="red">{t.fixFields}</Alert>}
        {save.isError && <SaveFailed error={save.error} />}
        {view.mayChange && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t.save}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** The server's words; after someone else saved meanwhile, the way to their rules. */
function SaveFailed({ error }: { error: Error }) {
  const queryClient = useQueryClient();
  const stale = error instanceof ApiRequestError && error.status === 409;
  return (
    <Alert color="red">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        {stale && (
          <Button
            size="xs"
            variant="default"
            onClick={() =>
              void queryClient.invalidateQueries({ queryKey: approvalRulesQueryOptions.queryKey })
            }
          >
            {t.reload}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
