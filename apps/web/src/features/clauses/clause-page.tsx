import { Anchor, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  type ClauseDetail,
  type ClauseVersion,
  clauseTag,
  parseVersionNumber,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { RecordLoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { clauseQueryOptions } from './api';
import { ClauseSettingsForm } from './clause-settings';
import { ClauseUsage } from './clause-usage';
import { NewVersionForm } from './new-version-form';
import { CLAUSE_PATHS } from './paths';
import { clauseTexts } from './texts';
import { VersionReview } from './version-review';
import { NEW_VERSION_BUTTON, VersionTable } from './version-table';

const t = clauseTexts.clause;

/** The version to look at first: the newest draft waiting for review, else the published one. */
function defaultVersion(clause: ClauseDetail): number | undefined {
  const newest = clause.versions[0];
  if (newest && newest.status === 'Entwurf') return newest.version;
  return clause.publishedVersion ?? newest?.version;
}

function BackLink() {
  return (
    <Anchor component={Link} to={CLAUSE_PATHS.clauses} size="sm">
      ← {t.back}
    </Anchor>
  );
}

/**
 * /klauseln/:key: a clause's versions, a new version written from the one under review, the review of
 * one version — its problems, content, changes, a trial on a deal, publishing or rolling back — where
 * the clause is used, and its settings. The version under review is in the address (`?version=3`), so a
 * reviewer can send the link to a colleague.
 */
export function ClausePage() {
  const key = useParams().key ?? '';
  const [search, setSearch] = useSearchParams();
  const clause = useQuery(clauseQueryOptions(key));
  // The version the editor started from, kept while another one is looked at.
  const [writingFrom, setWritingFrom] = useState<ClauseVersion | undefined>();
  const select = (version: number) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      next.set('version', String(version));
      return next;
    });

  if (clause.isPending) return <SectionLoader />;
  if (clause.isError) {
    return (
      <RecordLoadFailed
        back={<BackLink />}
        error={clause.error}
        notFoundTitle={t.notFound}
        loadFailedTitle={t.loadFailed}
        onRetry={() => void clause.refetch()}
      />
    );
  }

  const data = clause.data;
  const requested = parseVersionNumber(search.get('version'));
  const selected = data.versions.some((v) => v.version === requested) ? requested : defaultVersion(data);
  const version = data.versions.find((v) => v.version === selected);

  return (
    <Stack maw={1200}>
      <div>
        <BackLink />
        <Title order={1}>{data.name}</Title>
        <Group gap="xs">
          <Text c="dimmed">{t.tag}</Text>
          <Code>{clauseTag(data.key)}</Code>
        </Group>
      </div>
      <VersionTable
        clause={data}
        selected={selected}
        onSelect={select}
        writing={writingFrom !== undefined}
        onWrite={() => setWritingFrom(version)}
      />
      {writingFrom && (
        <NewVersionForm
          clauseKey={data.key}
          base={writingFrom}
          onCancel={() => {
            setWritingFrom(undefined);
            // The button the form came from takes the focus back once it is there again.
            requestAnimationFrame(() => document.getElementById(NEW_VERSION_BUTTON)?.focus());
          }}
          onSaved={(saved) => {
            setWritingFrom(undefined);
            select(saved.version);
          }}
        />
      )}
      {version && <VersionReview key={version.version} clause={data} version={version} />}
      <ClauseUsage clause={data} />
      <ClauseSettingsForm clause={data} />
    </Stack>
  );
}
