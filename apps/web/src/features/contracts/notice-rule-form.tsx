import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ContractRecord,
  NOTICE_END_POINTS,
  NOTICE_UNITS,
  type NoticeEndPoint,
  type NoticeRuleChange,
  type NoticeUnit,
  noticeRuleChangeSchema,
} from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { CONTRACTS_QUERY_KEY, setNoticeRule } from './api';
import { contractsTexts, NOTICE_END_POINT_LABELS, NOTICE_UNIT_LABELS } from './texts';

const t = contractsTexts.noticeForm;
const NONE = 'none';

type FieldErrors = Partial<Record<'amount' | 'unit' | 'endPoint' | 'reason', string>>;

/** The messages of a 400 (or of the same schema here) at the fields they name. */
function fieldErrorsOf(fields: Readonly<Record<string, readonly string[]>>): FieldErrors {
  const at = (key: string) => fields[key]?.[0];
  const errors: FieldErrors = {
    amount: at('rule.amount') ?? at('rule'),
    unit: at('rule.unit'),
    endPoint: at('rule.endPoint'),
    reason: at('reason'),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as FieldErrors;
}

/**
 * Legal's notice rule by hand (`maySetNoticeRule`): amount, unit, end point and the reason, checked with
 * the API's own schema before it is sent; the server's 400 is shown at the fields it names.
 */
export function NoticeRuleForm({ record }: { record: ContractRecord }) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState<string | number>(record.noticeRule?.amount ?? '');
  const [unit, setUnit] = useState<NoticeUnit>(record.noticeRule?.unit ?? 'weeks');
  const [endPoint, setEndPoint] = useState<NoticeEndPoint | typeof NONE>(record.noticeRule?.endPoint ?? NONE);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (change: NoticeRuleChange) => setNoticeRule(record.id, change),
    onSuccess: async () => {
      setReason('');
      await queryClient.invalidateQueries({ queryKey: CONTRACTS_QUERY_KEY });
    },
    onError: (error) => {
      if (error instanceof ApiRequestError) setErrors(fieldErrorsOf(error.fields));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    const input = {
      rule: {
        amount: amount === '' ? undefined : Number(amount),
        unit,
        ...(endPoint === NONE ? {} : { endPoint }),
      },
      reason,
    };
    const parsed = noticeRuleChangeSchema.safeParse(input);
    if (!parsed.success) {
      const fields: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.join('.');
        fields[key] = [...(fields[key] ?? []), issue.message];
      }
      setErrors(fieldErrorsOf(fields));
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  }

  // A refusal the fields show needs no second message.
  const failure = save.isError && Object.keys(errors).length === 0;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="notice-rule-form-heading">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <div>
            <Title order={2} size="h4" id="notice-rule-form-heading">
              {t.heading}
            </Title>
            <Text size="sm" c="dimmed">
              {t.intro}
            </Text>
          </div>
          <Group align="flex-start" gap="sm">
            <NumberInput
              label={t.amount}
              value={amount}
              onChange={setAmount}
              min={1}
              allowDecimal={false}
              allowNegative={false}
              required
              error={errors.amount}
              w={110}
            />
            <Select
              label={t.unit}
              data={NOTICE_UNITS.map((value) => ({ value, label: NOTICE_UNIT_LABELS[value] }))}
              value={unit}
              onChange={(value) => value && setUnit(value as NoticeUnit)}
              allowDeselect={false}
              required
              error={errors.unit}
              w={150}
            />
            <Select
              label={t.endPoint}
              data={[
                { value: NONE, label: t.noEndPoint },
                ...NOTICE_END_POINTS.map((value) => ({ value, label: NOTICE_END_POINT_LABELS[value] })),
              ]}
              value={endPoint}
              onChange={(value) => value && setEndPoint(value as NoticeEndPoint | typeof NONE)}
              allowDeselect={false}
              error={errors.endPoint}
              w={220}
            />
          </Group>
          <Textarea
            label={t.reason}
            placeholder={t.reasonPlaceholder}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            required
            maxLength={500}
            rows={2}
            error={errors.reason}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t.submit}
            </Button>
          </Group>
          <div aria-live="polite">
            {save.isSuccess && (
              <Alert color="green" p="xs">
                {t.saved}
              </Alert>
            )}
            {failure && (
              <Alert color="red" title={t.failed} role="alert">
                {errorMessage(save.error)}
              </Alert>
            )}
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
