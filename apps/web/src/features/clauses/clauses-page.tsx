import { Anchor, Badge, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ClauseSummary, formatDateTime } from '@vertragsgenerator/domain';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { clauseListQueryOptions } from './api';
import { NewClauseForm } from './new-clause-form';
import { clausePath } from './paths';
import { clauseTexts } from './texts';

const t = clauseTexts.list;

function ClauseRow({ clause }: { clause: ClauseSummary }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={clausePath(clause.key)} aria-label={t.open(clause.name)}>
          {clause.name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Code>{clause.key}</Code>
      </Table.Td>
      <Table.Td>
        {clause.publishedVersion === null ? (
          t.none
        ) : (
          <>
            <Text size="sm">{t.version(clause.publishedVersion)}</Text>
            {clause.publishedAt && (
              <Text size="sm" c="dimmed">
                {t.since(formatDateTime(new Date(clause.publishedAt)))}
              </Text>
            )}
          </>
        )}
      </Table.Td>
      <Table.Td>
        {clause.drafts > 0 ? (
          <Badge color="blue" variant="light">
            {t.draftCount(clause.drafts)}
          </Badge>
        ) : (
          '–'
        )}
      </Table.Td>
      <Table.Td>{clause.templates.length > 0 ? clause.templates.join(', ') : t.none}</Table.Td>
    </Table.Tr>
  );
}

/**
 * /klauseln: every clause with the version documents get now, its drafts waiting for review and the
 * templates placing it; `Neue Klausel` opens the form for a clause with its first version.
 */
export function ClausesPage() {
  const clauses = useQuery(clauseListQueryOptions);
  const [creating, setCreating] = useState(false);
  const newButton = useRef<HTMLButtonElement>(null);
  function closeForm() {
    setCreating(false);
    // The button the form replaced takes the focus back once it is there again.
    requestAnimationFrame(() => newButton.current?.focus());
  }

  return (
    <Stack maw={1200}>
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{t.intro}</Text>
      </div>
      {creating ? (
        <NewClauseForm onCancel={closeForm} />
      ) : (
        <Group>
          <Button ref={newButton} onClick={() => setCreating(true)}>
            {t.newClause}
          </Button>
        </Group>
      )}
      {clauses.isPending && <SectionLoader />}
      {clauses.isError && (
        <LoadFailed title={t.loadFailed} error={clauses.error} onRetry={() => void clauses.refetch()} />
      )}
      {clauses.data && clauses.data.length === 0 && <Text>{t.empty}</Text>}
      {clauses.data && clauses.data.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label={t.heading} striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.clause}</Table.Th>
                <Table.Th>{t.key}</Table.Th>
                <Table.Th>{t.published}</Table.Th>
                <Table.Th>{t.drafts}</Table.Th>
                <Table.Th>{t.templates}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {clauses.data.map((clause) => (
                <ClauseRow key={clause.key} clause={clause} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
