import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime, type TemplateSummary } from '@vertragsgenerator/domain';
import { Link } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { PATHS, templatePath } from '@/lib/paths';
import { templateListQueryOptions } from './api';
import { templateTexts } from './texts';

const t = templateTexts.list;

function TemplateRow({ template }: { template: TemplateSummary }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={templatePath(template.name)} aria-label={t.open(template.name)}>
          {template.name}
        </Anchor>
      </Table.Td>
      <Table.Td>{template.families.join(', ')}</Table.Td>
      <Table.Td>
        {/* Up to 26 keys: listed on request, so the table stays readable. */}
        <details>
          <summary>{t.keyCount(template.keys.length)}</summary>
          <Text size="sm">{template.keys.join(', ')}</Text>
        </details>
      </Table.Td>
      <Table.Td>
        {template.publishedVersion === null ? (
          t.none
        ) : (
          <>
            <Text size="sm">{t.version(template.publishedVersion)}</Text>
            {template.publishedBy && template.publishedAt && (
              <Text size="sm" c="dimmed">
                {t.by(template.publishedBy, formatDateTime(new Date(template.publishedAt)))}
              </Text>
            )}
          </>
        )}
      </Table.Td>
      <Table.Td>
        {template.drafts > 0 ? (
          <Badge color="blue" variant="light">
            {t.draftCount(template.drafts)}
          </Badge>
        ) : (
          '–'
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * /vorlagen: every template of the catalogue with the version documents are made from,
 * who published it and when, and the drafts waiting for review.
 */
export function TemplatesPage() {
  const templates = useQuery(templateListQueryOptions);
  return (
    <Stack maw={1200}>
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{t.intro}</Text>
        <Anchor component={Link} to={PATHS.placeholders}>
          {t.placeholdersLink}
        </Anchor>
      </div>
      {templates.isPending && <SectionLoader />}
      {templates.isError && (
        <LoadFailed title={t.loadFailed} error={templates.error} onRetry={() => void templates.refetch()} />
      )}
      {templates.data && (
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label={t.heading} striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.template}</Table.Th>
                <Table.Th>{t.family}</Table.Th>
                <Table.Th>{t.keys}</Table.Th>
                <Table.Th>{t.published}</Table.Th>
                <Table.Th>{t.drafts}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {templates.data.map((template) => (
                <TemplateRow key={template.name} template={template} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
