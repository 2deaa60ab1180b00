import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { parseVersionNumber, type TemplateDetail } from '@vertragsgenerator/domain';
import { Link, useParams, useSearchParams } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { PATHS, templateOfPath } from '@/lib/paths';
import { templateQueryOptions } from './api';
import { templateTexts } from './texts';
import { VersionReview } from './version-review';
import { VersionTable } from './version-table';
import { VersionUpload } from './version-upload';

const t = templateTexts.template;

/** The version to look at first: the newest draft waiting for review, else the published one. */
function defaultVersion(template: TemplateDetail): number | undefined {
  const newest = template.versions[0];
  if (newest && newest.status === 'Entwurf') return newest.version;
  return template.publishedVersion ?? newest?.version;
}

/**
 * /vorlagen/:name: a template's versions, the upload of a new one, and the review of
 * one version — its check, its changes, a trial on a deal, publishing or rolling back. The version
 * under review is in the address (`?version=3`), so a reviewer can send the link to a colleague.
 */
export function TemplatePage() {
  const name = templateOfPath(useParams().name ?? '');
  const [search, setSearch] = useSearchParams();
  const template = useQuery(templateQueryOptions(name));
  const select = (version: number) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      next.set('version', String(version));
      return next;
    });

  const data = template.data;
  const requested = parseVersionNumber(search.get('version'));
  const selected = data?.versions.some((v) => v.version === requested)
    ? requested
    : data && defaultVersion(data);
  const version = data?.versions.find((v) => v.version === selected);

  return (
    <Stack maw={1200}>
      <div>
        <Anchor component={Link} to={PATHS.templates} size="sm">
          ← {t.back}
        </Anchor>
        <Title order={1}>{name}</Title>
        {data && <Text c="dimmed">{t.usedFor(data.families.join(', '), data.keys.length)}</Text>}
      </div>
      {template.isPending && <SectionLoader />}
      {template.isError && (
        <LoadFailed title={t.loadFailed} error={template.error} onRetry={() => void template.refetch()} />
      )}
      {data && (
        <>
          <VersionUpload name={name} onUploaded={(uploaded) => select(uploaded.version)} />
          <VersionTable template={data} selected={selected} onSelect={select} />
          {version && <VersionReview key={version.version} template={data} version={version} />}
        </>
      )}
    </Stack>
  );
}
