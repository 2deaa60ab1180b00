import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  COUNTERSIGNER_ROLE,
  type EnvelopeView,
  RECIPIENT_ROLE_LABELS,
  RECIPIENT_ROLES,
  type RecipientInput,
  type RecipientRole,
  type SendEnvelopeRequest,
  sendEnvelopeSchema,
} from '@vertragsgenerator/domain';
import { type FormEvent, useId, useState } from 'react';
import {
  CountersignatorySelect,
  countersignatoryOf,
  countersignatureTexts,
  initialCountersignatory,
} from '@/components/countersignatory-select';
import { useFirstInvalidFocus } from '@/components/form';
import { VoidEnvelopeButton } from '@/components/void-envelope-button';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { texts } from '@/texts';
import { requestApproval, sendEnvelope } from './api';
import { approvalTexts } from './approval-texts';
import { approvalState, EnvelopeApprovalNotice } from './envelope-approval';
import { errorAt, type FieldErrors, fieldErrorsOf, NO_FIELD_ERRORS } from './field-errors';
import { codeTexts } from './signing-code-texts';
import { useEnvelopeUpdater } from './use-envelope-updater';

const MAX_RECIPIENTS = 10;
const MAX_ROUTING_ORDER = 10;
// The company's countersignatory is chosen below the rows, never as a row's role.
const ROW_ROLES = RECIPIENT_ROLES.filter((role) => role !== COUNTERSIGNER_ROLE);
const SIGNER_ROLES = ROW_ROLES.filter((role) => role !== 'CC');
const ROLE_OPTIONS = ROW_ROLES.map((role) => ({ value: role, label: RECIPIENT_ROLE_LABELS[role] }));

/** A recipient row being edited; `key` keeps React's inputs with their row when one is removed. */
interface RecipientRow extends Omit<RecipientInput, 'routingOrder'> {
  key: number;
  /** Empty while the input is cleared. */
  routingOrder: number | '';
}

let lastRowKey = 0;
function toRow(recipient: RecipientInput): RecipientRow {
  lastRowKey += 1;
  return { ...recipient, key: lastRowKey };
}

function toRequest(
  subject: string,
  message: string,
  rows: readonly RecipientRow[],
  /** The sender's choice of the signers' code, where the server leaves it to them. */
  signerCode: boolean | undefined,
  /** The company's countersignatory's id, null for none; undefined where the server offers no choice. */
  countersignatory: string | null | undefined,
): SendEnvelopeRequest {
  return {
    subject,
    message,
    recipients: rows.map(({ key: _key, ...row }) => ({
      ...row,
      routingOrder: row.routingOrder === '' ? Number.NaN : row.routingOrder,
    })),
    ...(signerCode === undefined ? {} : { signerCode }),
    ...(countersignatory === undefined ? {} : { countersignatory }),
  };
}

/**
 * The shared schema's messages, with a German one where it has none of its own (the order's bounds),
 * and the countersignatory the family needs.
 */
function validationErrors(request: SendEnvelopeRequest, countersignatoryMissing: boolean): FieldErrors {
  const result = sendEnvelopeSchema.safeParse(request);
  const missing: FieldErrors = countersignatoryMissing
    ? { countersignatory: [countersignatureTexts.required] }
    : NO_FIELD_ERRORS;
  if (result.success) return countersignatoryMissing ? missing : NO_FIELD_ERRORS;
  return {
    ...fieldErrorsOf(result.error, (issue) =>
      issue.path.at(-1) === 'routingOrder' ? texts.envelope.routingOrderInvalid : issue.message,
    ),
    ...missing,
  };
}

/**
 * A draft envelope: the sender checks the recipients the form proposed, subject and message, and
 * sends it, or discards it. Nothing is marked before the first attempt to send.
 */
export function EnvelopeDraft({ envelope }: { envelope: EnvelopeView }) {
  const updateEnvelope = useEnvelopeUpdater(envelope.id);
  const formId = useId();
  const [rows, setRows] = useState(() => envelope.recipients.map(toRow));
  const [subject, setSubject] = useState(envelope.subject);
  const [message, setMessage] = useState(envelope.message);
  const [signerCode, setSignerCode] = useState(envelope.signerCode?.enabled ?? true);
  const codeChangeable = envelope.signerCode?.changeable ?? false;
  const [countersignatory, setCountersignatory] = useState(() =>
    initialCountersignatory(envelope.countersignature),
  );
  const [attempted, setAttempted] = useState(false);
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  // Where a rule asks for an approval, `Senden` asks for it instead; the approver's decision sends.
  const approval = approvalState(envelope);
  const send = useSingleMutation({
    mutationFn: async (request: SendEnvelopeRequest) =>
      approval === 'required'
        ? requestApproval(envelope.id, request).then(() => null)
        : sendEnvelope(envelope.id, request),
    onSuccess: (sent) => {
      updateEnvelope(sent);
      if (sent) {
        notifications.show({ color: 'green', title: texts.envelope.sentTitle, message: texts.envelope.sent });
      } else {
        notifications.show({ color: 'green', title: approvalTexts.askedTitle, message: approvalTexts.asked });
      }
    },
    onError: (error) => {
      focusFirstInvalid();
      // Someone else sent or discarded it meanwhile, or it needs an approval it lacks: show what it is now.
      if (error instanceof ApiRequestError && error.status === 409) {
        // A notification, as the form that would show an alert goes away with the draft.
        notifications.show({ color: 'yellow', message: error.message });
        updateEnvelope(null);
      }
    },
  });

  const request = toRequest(
    subject,
    message,
    rows,
    codeChangeable ? signerCode : undefined,
    countersignatoryOf(envelope.countersignature, countersignatory),
  );
  const countersignatoryMissing = envelope.countersignature !== undefined && countersignatory === null;
  const clientErrors = attempted ? validationErrors(request, countersignatoryMissing) : NO_FIELD_ERRORS;
  const serverErrors = send.error instanceof ApiRequestError ? send.error.fields : NO_FIELD_ERRORS;
  const errorFor = (field: string) => errorAt(field, clientErrors, serverErrors);
  const usedSignerRoles = new Set<RecipientRole>(rows.map((row) => row.role));
  const freeSignerRole = SIGNER_ROLES.find((role) => !usedSignerRoles.has(role));
  const full = rows.length >= MAX_RECIPIENTS;

  function update(key: number, patch: Partial<RecipientRow>) {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  }

  function lastOrder(): number {
    return Math.max(1, ...rows.map((row) => (row.routingOrder === '' ? 1 : row.routingOrder)));
  }

  function addSigner() {
    if (!freeSignerRole) return;
    // A new signer signs after everyone already listed.
    const routingOrder = Math.min(lastOrder() + 1, MAX_ROUTING_ORDER);
    setRows((current) => [...current, toRow({ role: freeSignerRole, name: '', email: '', routingOrder })]);
  }

  function addCc() {
    // A copy goes out with the last signing step.
    setRows((current) => [...current, toRow({ role: 'CC', name: '', email: '', routingOrder: lastOrder() })]);
  }

  function handleSend(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    const result = sendEnvelopeSchema.safeParse(request);
    if (result.success && !countersignatoryMissing) {
      send.mutate(result.data);
    } else {
      // The server's verdict on the previous attempt no longer applies.
      send.reset();
      focusFirstInvalid();
    }
  }

  return (
    <Stack>
      <form ref={container} id={formId} onSubmit={handleSend} noValidate>
        <Stack>
          <Title order={2}>{texts.envelope.recipientsHeading}</Title>
          <Text size="sm" c="dimmed">
            {texts.envelope.routingOrderHint}
          </Text>
          {rows.map((row, index) => (
            <RecipientFields
              key={row.key}
              row={row}
              index={index}
              errorFor={errorFor}
              removable={rows.length > 1}
              onChange={(patch) => update(row.key, patch)}
              onRemove={() => setRows((current) => current.filter((candidate) => candidate.key !== row.key))}
            />
          ))}
          {errorFor('recipients') && (
            <Text c="red" size="sm" role="alert">
              {errorFor('recipients')}
            </Text>
          )}
          <Group>
            <Button variant="light" onClick={addSigner} disabled={full || !freeSignerRole}>
              {texts.envelope.addSigner}
            </Button>
            <Button variant="light" onClick={addCc} disabled={full}>
              {texts.envelope.addCc}
            </Button>
          </Group>
          {envelope.countersignature && (
            <CountersignatorySelect
              setting={envelope.countersignature}
              value={countersignatory}
              onChange={setCountersignatory}
              error={errorFor('countersignatory')}
            />
          )}
          <TextInput
            label={texts.envelope.subject}
            required
            value={subject}
            onChange={(event) => setSubject(event.currentTarget.value)}
            error={errorFor('subject')}
          />
          <Textarea
            label={texts.envelope.message}
            rows={5}
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            error={errorFor('message')}
          />
          {/* SIGNING_OTP=off asks nobody: then there is nothing to show or choose. */}
          {envelope.signerCode && (envelope.signerCode.enabled || codeChangeable) && (
            <Checkbox
              label={codeTexts.draftLabel}
              description={codeChangeable ? codeTexts.draftOptional : codeTexts.draftRequired}
              checked={codeChangeable ? signerCode : envelope.signerCode.enabled}
              disabled={!codeChangeable}
              onChange={(event) => setSignerCode(event.currentTarget.checked)}
              error={errorFor('signerCode')}
            />
          )}
          {Object.keys(clientErrors).length > 0 && <Alert color="red">{texts.envelope.fixFields}</Alert>}
          {send.isError && <Alert color="red">{errorMessage(send.error)}</Alert>}
        </Stack>
      </form>
      {envelope.approval && (
        <EnvelopeApprovalNotice approval={envelope.approval} onChanged={() => updateEnvelope(null)} />
      )}
      {/* Outside the form: React lets the void dialog's own submit bubble to an enclosing form. */}
      <Group>
        {(approval === 'none' || approval === 'required') && (
          <Button type="submit" form={formId} loading={send.isPending}>
            {approval === 'required' ? approvalTexts.send : texts.envelope.send}
          </Button>
        )}
        <VoidEnvelopeButton envelopeId={envelope.id} disabled={send.isPending} onChanged={updateEnvelope} />
      </Group>
    </Stack>
  );
}

interface RecipientFieldsProps {
  row: RecipientRow;
  index: number;
  errorFor: (field: string) => string | undefined;
  removable: boolean;
  onChange: (patch: Partial<RecipientRow>) => void;
  onRemove: () => void;
}

function RecipientFields({ row, index, errorFor, removable, onChange, onRemove }: RecipientFieldsProps) {
  const field = (name: keyof RecipientInput) => errorFor(`recipients.${index}.${name}`);
  return (
    <Fieldset legend={texts.envelope.recipientLegend(index + 1)}>
      <Group align="flex-start" wrap="wrap">
        <Select
          label={texts.envelope.role}
          data={ROLE_OPTIONS}
          value={row.role}
          onChange={(role) => role && onChange({ role: role as RecipientRole })}
          allowDeselect={false}
          error={field('role')}
          w={220}
        />
        <TextInput
          label={texts.envelope.name}
          required
          // Every field of a row is required, so the row does without the asterisks.
          withAsterisk={false}
          value={row.name}
          onChange={(event) => onChange({ name: event.currentTarget.value })}
          error={field('name')}
          style={{ flex: 1 }}
          miw={180}
        />
        <TextInput
          label={texts.envelope.email}
          type="email"
          required
          withAsterisk={false}
          value={row.email}
          onChange={(event) => onChange({ email: event.currentTarget.value })}
          error={field('email')}
          style={{ flex: 1 }}
          miw={200}
        />
        <NumberInput
          label={texts.envelope.routingOrder}
          min={1}
          max={MAX_ROUTING_ORDER}
          clampBehavior="strict"
          allowDecimal={false}
          allowNegative={false}
          value={row.routingOrder}
          onChange={(value) => onChange({ routingOrder: typeof value === 'number' ? value : '' })}
          error={field('routingOrder')}
          w={120}
        />
        <ActionIcon
          variant="subtle"
          color="red"
          size="lg"
          mt={28}
          onClick={onRemove}
          disabled={!removable}
          aria-label={texts.envelope.removeRecipient(index + 1)}
          title={texts.envelope.removeRecipient(index + 1)}
        >
          ×
        </ActionIcon>
      </Group>
    </Fieldset>
  );
}
