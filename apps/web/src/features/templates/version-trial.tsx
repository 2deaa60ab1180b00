import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DocumentViewer } from '@/components/document-viewer';
import { MatchTrial, versionLibraryTexts } from '@/components/version-library';
import { downloadFile } from '@/lib/download';
import { trialFile, trialQueryOptions } from './api';
import { templateTexts } from './texts';
import { ViewAndDownload } from './view-and-download';

const t = templateTexts.review;

/**
 * `An einem Match ausprobieren`: every key that uses the template, rendered from this version with a
 * deal's values — shown in the built-in viewer, offered for download, with the values each would
 * leave blank. Nothing is stored.
 */
export function VersionTrial({ name, version }: { name: string; version: number }) {
  // Empty: the server's demo match with the most values, tried as soon as the version is opened.
  const [matchId, setMatchId] = useState('');
  const [viewing, setViewing] = useState<string | undefined>();
  const trial = useQuery(trialQueryOptions(name, version, matchId));
  // A column for the clauses only where the template places any.
  const withClauses = trial.data?.documents.some((document) => document.clauses.length > 0) ?? false;

  function tryIt(next: string) {
    setViewing(undefined);
    if (next === matchId) void trial.refetch();
    else setMatchId(next);
  }

  const load = (key: string, signal?: AbortSignal) => trialFile(name, version, key, matchId, signal);
  const download = async (key: string, fileName: string) => downloadFile(await load(key), fileName);

  return (
    <MatchTrial
      heading={t.trialHeading}
      intro={t.trialIntro}
      onTry={tryIt}
      pending={trial.isFetching}
      loading={trial.isFetching && !trial.data}
      error={trial.error}
      result={trial.data}
      after={
        viewing &&
        trial.data && (
          <section aria-label={t.viewing(viewing)}>
            <Text fw={500} mb="xs">
              {t.viewing(viewing)}
            </Text>
            <DocumentViewer
              documentKey={`template-trial:${name}:${version}:${trial.data.matchId}:${viewing}`}
              load={(signal) => load(viewing, signal)}
              pdf={false}
              onDownload={() => {
                const document = trial.data.documents.find((d) => d.key === viewing);
                if (document) void download(document.key, document.fileName);
              }}
            />
          </section>
        )
      }
    >
      {(result) => (
        <Table.ScrollContainer minWidth={withClauses ? 980 : 760}>
          <Table verticalSpacing="xs" aria-label={versionLibraryTexts.trial.trialFor(result.matchId)}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.document}</Table.Th>
                <Table.Th>{t.blank}</Table.Th>
                {withClauses && <Table.Th>{t.clauses}</Table.Th>}
                <Table.Th>{versionLibraryTexts.versions.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.documents.map((document) => (
                <Table.Tr key={document.key}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {document.key}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {document.fileName}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {document.error ? (
                      <Text size="sm" c="red.8">
                        {t.notRendered}: {document.error}
                      </Text>
                    ) : document.blankFields.length > 0 ? (
                      <Text size="sm">
                        {document.blankFields
                          .map((field) => `${field.name} (${field.description})`)
                          .join(', ')}
                      </Text>
                    ) : (
                      t.nothingBlank
                    )}
                  </Table.Td>
                  {withClauses && (
                    <Table.Td>
                      {document.clauses.map((clause) => (
                        <Text size="sm" key={clause.key}>
                          {t.clauseChoice(clause.name, clause.chosen?.variant ?? null, clause.reason)}
                        </Text>
                      ))}
                    </Table.Td>
                  )}
                  <Table.Td>
                    {!document.error && (
                      <ViewAndDownload
                        viewing={viewing === document.key}
                        viewText={t.show}
                        viewLabel={t.showLabel(document.key)}
                        onView={() => setViewing(document.key)}
                        downloadLabel={t.downloadLabel(document.key)}
                        onDownload={() => void download(document.key, document.fileName)}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </MatchTrial>
  );
}
