import { Alert, Anchor, Button, FileInput, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import {
  CATALOGUE,
  isLegal,
  SEAL_CHECK_MAX_BYTES,
  type SessionUser,
  type StoredDocument,
  signedElsewhereSchema,
} from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import { z } from 'zod';
import { ApiRequestError, apiJson, errorMessage } from '@/lib/api';
import { readChosenFile } from '@/lib/chosen-file';
import { contractPath, SESSION_ROUTE } from '@/lib/paths';

const signedElsewhereTexts = {
  open: 'Als unterschrieben erfassen',
  title: 'Als unterschrieben erfassen',
  intro:
    'Die Gegenseite hat außerhalb der elektronischen Signatur unterschrieben? Lade das unterschriebene PDF hoch: Die neueste gespeicherte Version dieses Dokuments wird ein Vertrag unter Verträge.',
  saveFirst: 'Du hast ungespeicherte Änderungen. Erfasst wird die zuletzt gespeicherte Version.',
  file: 'Unterschriebenes PDF',
  fileDescription: 'PDF, höchstens 20 MB',
  clear: 'Datei entfernen',
  signedOn: 'Datum der Unterschrift',
  signedBy: 'Unterschrieben von',
  signedByPlaceholder: 'z. B. Ute Vogelsang (Lahntal Software AG)',
  submit: 'Erfassen',
  cancel: 'Abbrechen',
  close: 'Schließen',
  noFile: 'Bitte wähle das unterschriebene PDF.',
  notPdf: 'Bitte wähle eine PDF-Datei.',
  tooLarge: 'Die Datei ist größer als 20 MB.',
  future: 'Das Datum der Unterschrift liegt in der Zukunft.',
  failed: 'Das Dokument konnte nicht erfasst werden.',
  recorded: 'Als unterschrieben erfasst',
  recordedText: 'Der Vertrag steht jetzt unter Verträge, mit seinem Ende und seiner Kündigungsfrist.',
  toContract: 'Zum Vertrag',
};
const t = signedElsewhereTexts;

const answerSchema = z.object({ contractId: z.string() });

type Field = 'file' | 'signedOn' | 'signedBy';
type FieldErrors = Partial<Record<Field, string>>;

/** Today in the browser's calendar, as the date field writes it (YYYY-MM-DD). */
function todayIso(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A document that makes a contract: every family of the catalogue but the offer. */
function makesContract(document: StoredDocument): boolean {
  const family = CATALOGUE.get(document.docKey)?.params.family;
  return family !== undefined && family !== 'offer';
}

function isPdf(file: File): boolean {
  return file.type === 'application/pdf' || (file.type === '' && /\.pdf$/i.test(file.name));
}

async function recordSignedElsewhere(
  documentId: string,
  input: { file: File; signedOn: string; signedBy: string },
): Promise<string> {
  const file = await readChosenFile(input.file);
  const query = new URLSearchParams({ signedOn: input.signedOn, signedBy: input.signedBy });
  const answer = await apiJson(
    `/backend/documents/${encodeURIComponent(documentId)}/signed-elsewhere?${query}`,
    answerSchema,
    { method: 'POST', body: new Blob([file], { type: 'application/pdf' }) },
  );
  return answer.contractId;
}

function SignedElsewhereForm({
  document,
  dirty,
  onClose,
}: {
  document: StoredDocument;
  dirty: boolean;
  onClose: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [signedOn, setSignedOn] = useState('');
  const [signedBy, setSignedBy] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const record = useMutation({
    mutationFn: (input: { file: File; signedOn: string; signedBy: string }) =>
      recordSignedElsewhere(document.id, input),
    onError: (error) => {
      if (!(error instanceof ApiRequestError)) return;
      const at = (key: Field) => error.fields[key]?.[0];
      const fields: FieldErrors = {};
      for (const key of ['signedOn', 'signedBy'] as const) if (at(key)) fields[key] = at(key);
      setErrors(fields);
    },
  });

  if (record.data) {
    return (
      <Stack>
        <Alert color="green" title={t.recorded}>
          <Text size="sm">{t.recordedText}</Text>
        </Alert>
        <Group justify="space-between">
          <Anchor component={Link} to={contractPath(record.data)} fw={600}>
            {t.toContract}
          </Anchor>
          <Button variant="default" onClick={onClose}>
            {t.close}
          </Button>
        </Group>
      </Stack>
    );
  }

  function choose(chosen: File | null) {
    setFile(chosen);
    const { file: _previous, ...others } = errors;
    if (!chosen) return setErrors(others);
    if (!isPdf(chosen)) return setErrors({ ...others, file: t.notPdf });
    if (chosen.size > SEAL_CHECK_MAX_BYTES) return setErrors({ ...others, file: t.tooLarge });
    setErrors(others);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    record.reset();
    const found: FieldErrors = {};
    if (!file) found.file = t.noFile;
    else if (!isPdf(file)) found.file = t.notPdf;
    else if (file.size > SEAL_CHECK_MAX_BYTES) found.file = t.tooLarge;
    const parsed = signedElsewhereSchema.safeParse({ signedOn, signedBy });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as Field;
        found[key] ??= issue.message;
      }
    } else if (parsed.data.signedOn > todayIso()) found.signedOn = t.future;
    setErrors(found);
    if (Object.keys(found).length > 0 || !file || !parsed.success) return;
    record.mutate({ file, ...parsed.data });
  }

  const failure = record.isError && Object.keys(errors).length === 0;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t.intro}</Text>
        {dirty && (
          <Alert color="yellow" p="xs">
            <Text size="sm">{t.saveFirst}</Text>
          </Alert>
        )}
        <FileInput
          label={t.file}
          description={t.fileDescription}
          accept="application/pdf,.pdf"
          value={file}
          onChange={choose}
          clearable
          clearButtonProps={{ 'aria-label': t.clear }}
          aria-label={t.file}
          fileInputProps={{ 'aria-label': t.file }}
          required
          error={errors.file}
        />
        <TextInput
          type="date"
          label={t.signedOn}
          value={signedOn}
          max={todayIso()}
          onChange={(event) => setSignedOn(event.currentTarget.value)}
          required
          error={errors.signedOn}
        />
        <TextInput
          label={t.signedBy}
          placeholder={t.signedByPlaceholder}
          value={signedBy}
          onChange={(event) => setSignedBy(event.currentTarget.value)}
          maxLength={300}
          required
          error={errors.signedBy}
        />
        {failure && (
          <Alert color="red" title={t.failed} role="alert">
            {errorMessage(record.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button type="submit" loading={record.isPending}>
            {t.submit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Legal's `Als unterschrieben erfassen` for a document that makes a contract (not an offer): the PDF the
 * counterparty signed elsewhere, the day and who signed; the record it becomes is linked once it is made.
 */
export function SignedElsewhereButton({ document, dirty }: { document: StoredDocument; dirty: boolean }) {
  const user = useRouteLoaderData(SESSION_ROUTE) as SessionUser | null | undefined;
  const [opened, setOpened] = useState(false);
  if (!isLegal(user?.permission) || !makesContract(document)) return null;
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        {t.open}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t.title} centered size="lg">
        {/* A fresh form each time it opens. */}
        {opened && <SignedElsewhereForm document={document} dirty={dirty} onClose={() => setOpened(false)} />}
      </Modal>
    </>
  );
}
