import { Alert, Button, Fieldset, FileInput, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  BATCH_MAX_DEALS,
  type BatchCheckRequest,
  type CatalogueEntry,
  type PermissionLevel,
} from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ExtensionRateFields, OfferVolumeFields } from '@/components/document-value-fields';
import { isNumberValid, isSelectValid, isTextValid, SelectField, TextField } from '@/components/fields';
import { type FieldRule, FormStatus, useFirstInvalidFocus, useFormValidation } from '@/components/form';
import { SignatorySelect } from '@/components/signatory-select';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { UnreadableFileError, useFreshFileChoice } from '@/lib/chosen-file';
import { batchPath } from '@/lib/paths';
import { texts } from '@/texts';
import { BATCHES_QUERY_KEY, batchQueryOptions, checkBatch } from './api';
import { BatchSendFields, useBatchSend } from './batch-send-fields';
import {
  availableKinds,
  type BatchKind,
  type BatchParam,
  batchEntry,
  type DocumentParams,
  fittingParams,
  isEsignature,
  keyOf,
  paramFields,
  splitMatchIds,
} from './document-choice';
import { BATCH_FILE_MAX_BYTES, readAsBase64 } from './read-file';
import { BATCH_KIND_LABELS, batchesTexts } from './texts';

const t = batchesTexts.form;
const labels = texts.forms.labels;

/** The server's name of the field a choice's error belongs to (a 400's `fields`). */
const PARAM_SERVER_FIELDS: Partial<Record<BatchParam, string>> = { partner: 'vertragspartner_type' };

/** The fields of the common values and of the send, which show the server's words themselves. */
const FIELDS_WITH_ERRORS = [
  'docKey',
  'matchIds',
  'file',
  'neuesEnde',
  'neuerSatzRemote',
  'neuerSatzOnsite',
  'neueStundenProWoche',
  'selectedPerson',
  'position',
  'projectHours',
  'projectDays',
  'send',
  'send.countersignatory',
  'send.message',
];

/** A line of the input the server refused: „Zeile 3“. */
const LINE_FIELD = /^Zeile (\d+)$/;

/** What the form is prefilled with, from the address (`/serien?dokument=…&matches=…`). */
export interface BatchPrefill {
  kind: BatchKind | null;
  params: DocumentParams;
  matchIds: string;
}

/**
 * „Neue Serie“: the document (its kind, then the catalogue's choices of its form), the values every deal
 * shares, an e-signature contract's send, and the deals — pasted match IDs and/or a CSV or Excel file.
 * „Prüfen“ sends it to the server's check and opens the checked batch.
 */
export function NewBatchForm({
  level,
  prefill,
}: {
  level: PermissionLevel | null | undefined;
  prefill: BatchPrefill;
}) {
  const kinds = availableKinds(level);
  const [kind, setKind] = useState<BatchKind | null>(prefill.kind);
  const [params, setParams] = useState<DocumentParams>(prefill.params);
  const [newEnd, setNewEnd] = useState('');
  const [newRateRemote, setNewRateRemote] = useState<number | null>(null);
  const [newRateOnsite, setNewRateOnsite] = useState<number | null>(null);
  const [newHours, setNewHours] = useState<number | null>(null);
  const [signatory, setSignatory] = useState<string | null>(null);
  const [position, setPosition] = useState('');
  const [projectHours, setProjectHours] = useState<number | null>(null);
  const [projectDays, setProjectDays] = useState<number | null>(null);
  const [matchIds, setMatchIds] = useState(prefill.matchIds);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [invalidChoice, setInvalidChoice] = useState(false);
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const fields = kind ? paramFields(kind, params, level) : [];
  const docKey = kind ? keyOf(kind, params) : null;
  const entry = batchEntry(docKey, level);
  // The send is asked for once the e-signature contract is known: its family says who may countersign.
  const send = useBatchSend(isEsignature(kind) && entry ? entry.key : null);
  const ids = splitMatchIds(matchIds);
  const tooMany = ids.length > BATCH_MAX_DEALS;
  const hasDeals = ids.length > 0 || file !== null;
  const extension = kind === 'extension';
  const termination = kind === 'termination';
  const offer = kind === 'offer';

  const rules: FieldRule[] = [
    { name: 'kind', required: true, valid: isSelectValid(kind, true) },
    ...fields.map(({ param }) => ({
      name: param,
      required: true,
      valid: isSelectValid(params[param] ?? null, true),
    })),
    // A file may name each deal's new end in a column of its own.
    ...(extension
      ? [{ name: 'neuesEnde', required: file === null, valid: file !== null || newEnd !== '' }]
      : []),
    ...(termination || offer
      ? [{ name: 'selectedPerson', required: true, valid: isSelectValid(signatory, true) }]
      : []),
    ...(termination ? [{ name: 'position', required: true, valid: isTextValid(position, true) }] : []),
    ...(offer
      ? [
          { name: 'projectHours', required: true, valid: isNumberValid(projectHours, true) },
          { name: 'projectDays', required: true, valid: isNumberValid(projectDays, true) },
        ]
      : []),
    ...send.rules,
    { name: 'deals', required: true, valid: hasDeals && !tooMany && fileError === null },
  ];
  const validation = useFormValidation(rules);
  const { showErrors, serverError } = validation;

  const check = useMutation({
    mutationFn: async (chosen: CatalogueEntry) => {
      const request: BatchCheckRequest = { docKey: chosen.key, values: values(chosen) };
      const how = send.send();
      if (how) request.send = how;
      if (matchIds.trim() !== '') request.matchIds = matchIds;
      if (file) request.file = { name: file.name, content: await readAsBase64(file) };
      return checkBatch(request);
    },
    onSuccess: (batch) => {
      queryClient.setQueryData(batchQueryOptions(batch.id).queryKey, batch);
      void queryClient.invalidateQueries({ queryKey: [...BATCHES_QUERY_KEY, 'list'] });
      navigate(batchPath(batch.id));
    },
    onError: (error) => {
      if (error instanceof UnreadableFileError) {
        setFileError(error.message);
      } else if (error instanceof ApiRequestError) {
        validation.setServerFields(error.fields);
      }
      focusFirstInvalid();
    },
  });

  /** The dataList fields every deal shares, and the side the key names. */
  function values(chosen: CatalogueEntry): Record<string, unknown> {
    const common: Record<string, unknown> = { vertragspartner_type: chosen.params.partner };
    if (extension) {
      // An empty field is left out: that value stays as agreed (or comes from the file).
      if (newEnd !== '') common.neuesEnde = newEnd;
      if (newRateRemote !== null) common.neuerSatzRemote = newRateRemote;
      if (newRateOnsite !== null) common.neuerSatzOnsite = newRateOnsite;
      if (newHours !== null) common.neueStundenProWoche = newHours;
    }
    if (termination) Object.assign(common, { selectedPerson: signatory, position });
    if (offer) Object.assign(common, { projectHours, projectDays, selectedPerson: signatory });
    return common;
  }

  const fileChoice = useFreshFileChoice((next) => {
    setFile(next);
    setFileError(next && next.size > BATCH_FILE_MAX_BYTES ? t.fileTooLarge : null);
  });

  function chooseKind(next: string | null) {
    const chosen = (next as BatchKind | null) ?? null;
    setKind(chosen);
    setInvalidChoice(false);
    // The choices shared by the kinds (company, partner …) stay where the new kind offers them.
    if (chosen) setParams((current) => fittingParams(chosen, current, level));
  }

  function choose(param: BatchParam, value: string | null) {
    setInvalidChoice(false);
    if (kind) setParams((current) => fittingParams(kind, { ...current, [param]: value }, level));
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (check.isPending) return;
    check.reset();
    if (!validation.attemptSubmit()) {
      focusFirstInvalid();
      return;
    }
    if (!entry) {
      setInvalidChoice(true);
      return;
    }
    check.mutate(entry);
  }

  if (kinds.length === 0) return <Text>{t.noDocuments}</Text>;

  const failure = check.error;
  const serverFields = failure instanceof ApiRequestError ? failure.fields : {};
  const shownFields = new Set([
    ...FIELDS_WITH_ERRORS,
    ...fields.map(({ param }) => PARAM_SERVER_FIELDS[param] ?? param),
  ]);
  // The lines of the input first, in their order; then whatever the form has no field for.
  const problems = Object.entries(serverFields)
    .filter(([field]) => !shownFields.has(field) && !shownFields.has(field.replace(/^values\./, '')))
    .map(([field, messages]) => ({ field, line: Number(LINE_FIELD.exec(field)?.[1] ?? Infinity), messages }))
    .sort((a, b) => a.line - b.line || a.field.localeCompare(b.field, 'de'));
  const fieldError = (field: string) => serverError(field, `values.${field}`);

  return (
    <form ref={container} onSubmit={handleSubmit} noValidate>
      <Stack maw={720}>
        <SelectField
          label={t.kind}
          options={kinds.map((value) => ({ value, label: BATCH_KIND_LABELS[value] }))}
          value={kind}
          onChange={chooseKind}
          required
          showErrors={showErrors}
          serverError={serverError('docKey')}
        />
        {fields.map(({ param, options }) => (
          <SelectField
            key={param}
            label={labels[param]}
            options={options}
            value={params[param] ?? null}
            onChange={(value) => choose(param, value)}
            required
            showErrors={showErrors}
            serverError={serverError(PARAM_SERVER_FIELDS[param] ?? param)}
          />
        ))}

        {(extension || termination || offer) && (
          <Fieldset legend={t.commonValues} variant="unstyled">
            <Stack>
              {extension && (
                <>
                  <Stack gap={4}>
                    <TextField
                      label={labels.newEnd}
                      type="date"
                      value={newEnd}
                      onChange={setNewEnd}
                      required={file === null}
                      showErrors={showErrors}
                      serverError={fieldError('neuesEnde')}
                    />
                    {file !== null && (
                      <Text size="sm" c="dimmed">
                        {t.newEndFromFile}
                      </Text>
                    )}
                  </Stack>
                  <ExtensionRateFields
                    remote={[newRateRemote, setNewRateRemote]}
                    onsite={[newRateOnsite, setNewRateOnsite]}
                    hours={[newHours, setNewHours]}
                    serverError={fieldError}
                  />
                </>
              )}
              {offer && (
                <OfferVolumeFields
                  hours={[projectHours, setProjectHours]}
                  days={[projectDays, setProjectDays]}
                  showErrors={showErrors}
                  serverError={fieldError}
                />
              )}
              {(termination || offer) && (
                <SignatorySelect
                  value={signatory}
                  onChange={setSignatory}
                  showErrors={showErrors}
                  serverError={fieldError('selectedPerson')}
                />
              )}
              {termination && (
                <TextField
                  label={labels.position}
                  value={position}
                  onChange={setPosition}
                  required
                  showErrors={showErrors}
                  serverError={fieldError('position')}
                />
              )}
            </Stack>
          </Fieldset>
        )}

        {send.rules.length > 0 && (
          <BatchSendFields send={send} showErrors={showErrors} serverError={serverError} />
        )}

        <Fieldset legend={t.deals} variant="unstyled">
          <Stack>
            <Textarea
              label={t.matchIds}
              description={t.matchIdsHelp}
              placeholder={'PL-10001\nPL-10002'}
              rows={6}
              value={matchIds}
              onChange={(event) => setMatchIds(event.currentTarget.value)}
              error={
                serverError('matchIds') ??
                (tooMany ? t.tooManyDeals(BATCH_MAX_DEALS) : showErrors && !hasDeals && t.noDeals)
              }
            />
            {ids.length > 0 && (
              <Text size="sm" c="dimmed" aria-live="polite">
                {t.matchIdsCount(ids.length)}
              </Text>
            )}
            <FileInput
              label={t.file}
              description={isEsignature(kind) ? t.fileHelpEsignature : t.fileHelp}
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              value={file}
              {...fileChoice}
              clearable
              clearButtonProps={{ 'aria-label': t.removeFile }}
              error={fileError ?? serverError('file') ?? (showErrors && !hasDeals)}
              // A name on the button and on the hidden file input behind it too, as the match import has.
              aria-label={t.file}
              fileInputProps={{ 'aria-label': t.file }}
            />
            {problems.length > 0 && (
              <Alert color="red" title={t.problems}>
                <List size="sm" spacing={2}>
                  {problems.map(({ field, messages }) => (
                    <List.Item key={field}>
                      {field}: {messages.join(' ')}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
          </Stack>
        </Fieldset>

        <FormStatus validation={validation} />
        {invalidChoice && (
          <Alert color="red" role="alert">
            {t.invalidChoice}
          </Alert>
        )}
        {failure && !(failure instanceof UnreadableFileError) && (
          <Alert color="red" title={t.checkFailed} role="alert">
            {errorMessage(failure)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={check.isPending}>
            {t.check}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
