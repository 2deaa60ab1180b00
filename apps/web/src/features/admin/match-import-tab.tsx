import {
  Alert,
  Button,
  Checkbox,
  FileInput,
  Group,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { MATCH_FILE_MAX_BYTES, type MatchImportSummary } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { UnreadableFileError, useFreshFileChoice } from '@/lib/chosen-file';
import { importMatchFile } from './api';
import { adminTexts } from './texts';

const t = adminTexts.import;

/**
 * "Matches importieren": the file is checked first (a dry run on the server, the CLI's validator), and
 * imported in one transaction only on request; the upload shows its progress.
 */
export function MatchImportTab() {
  const [file, setFile] = useState<File | null>(null);
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [checked, setChecked] = useState<MatchImportSummary | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  const run = useMutation({
    mutationFn: async (mode: 'check' | 'apply') => {
      if (!file) throw new Error(t.chooseFile);
      setProgress(0);
      try {
        return { mode, summary: await importMatchFile(file, mode, skipInvalid, setProgress) };
      } finally {
        setProgress(null);
      }
    },
    onSuccess: ({ mode, summary }) => setChecked(mode === 'check' ? summary : null),
    onError: (error) => {
      // A file that cannot be read is to be chosen again, as the message under the field says.
      if (error instanceof UnreadableFileError) return setFileError(error.message);
      const field = error instanceof ApiRequestError ? error.fields.file?.join(' ') : undefined;
      setFileError(field ?? null);
    },
  });
  const imported = run.data?.mode === 'apply' ? run.data.summary : null;

  const fileChoice = useFreshFileChoice((next) => {
    setFile(next);
    setChecked(null);
    run.reset();
    setFileError(next && next.size > MATCH_FILE_MAX_BYTES ? t.tooLarge(MATCH_FILE_MAX_BYTES) : null);
  });

  const summary = checked ?? imported;
  const blocked = checked !== null && checked.refused.length > 0 && !skipInvalid;
  return (
    <Stack maw={900}>
      <Text>{t.intro}</Text>
      <FileInput
        label={t.file}
        accept=".csv,.json,text/csv,application/json"
        value={file}
        {...fileChoice}
        error={fileError}
        clearable
        // The label names the button for browsers; checkers that look at every form field also want
        // a name on the button itself and on the hidden file input behind it (HTML_CodeSniffer F68, H91).
        aria-label={t.file}
        fileInputProps={{ 'aria-label': t.file }}
      />
      <Group>
        <Button
          variant="default"
          disabled={!file || fileError !== null}
          loading={run.isPending && run.variables === 'check'}
          onClick={() => run.mutate('check')}
        >
          {t.check}
        </Button>
        {checked && (
          <Button
            disabled={blocked || checked.new + checked.changed + checked.unchanged === 0}
            loading={run.isPending && run.variables === 'apply'}
            onClick={() => run.mutate('apply')}
          >
            {t.apply}
          </Button>
        )}
      </Group>
      {checked && checked.refused.length > 0 && (
        <Checkbox
          label={t.skipInvalid}
          checked={skipInvalid}
          onChange={(event) => setSkipInvalid(event.currentTarget.checked)}
        />
      )}
      <div aria-live="polite">
        {progress !== null && (
          <Stack gap={4}>
            <Text size="sm">{progress < 1 ? t.uploading(Math.round(progress * 100)) : t.checking}</Text>
            <Progress value={progress * 100} animated={progress >= 1} aria-label={t.file} />
          </Stack>
        )}
        {imported && <Alert color="green">{t.imported(imported.imported)}</Alert>}
        {blocked && <Alert color="yellow">{t.blocked}</Alert>}
      </div>
      {run.isError && !fileError && <Alert color="red">{errorMessage(run.error)}</Alert>}
      {summary && <ImportSummary summary={summary} />}
    </Stack>
  );
}

function ImportSummary({ summary }: { summary: MatchImportSummary }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t.result}
      </Title>
      <Text>{t.counts({ ...summary, refused: summary.refused.length })}</Text>
      {summary.refused.length > 0 && (
        <>
          <Title order={3} size="h5">
            {t.refusedHeading}
          </Title>
          <Table.ScrollContainer minWidth={700}>
            <Table verticalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t.place}</Table.Th>
                  <Table.Th>{t.matchId}</Table.Th>
                  <Table.Th>{t.reason}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {summary.refused.slice(0, 500).map((row) => (
                  <Table.Tr key={`${row.line ?? ''}-${row.entry ?? ''}-${row.matchId ?? ''}`}>
                    <Table.Td>{t.placeOf(row)}</Table.Td>
                    <Table.Td>{row.matchId ?? '–'}</Table.Td>
                    <Table.Td>{row.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}
