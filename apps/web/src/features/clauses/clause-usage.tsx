import { Anchor, Badge, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ClauseContractUse, ClauseDetail } from '@vertragsgenerator/domain';
import { Link } from 'react-router';
import { contractPath } from '@/lib/paths';
import { DeleteClause } from './delete-clause';
import { clauseTexts } from './texts';

const t = clauseTexts.usage;

/** Those holding an older version first, each group in the server's order. */
function outdatedFirst(contracts: readonly ClauseContractUse[]): ClauseContractUse[] {
  return [...contracts.filter((c) => c.outdated), ...contracts.filter((c) => !c.outdated)];
}

function Templates({ clause }: { clause: ClauseDetail }) {
  if (clause.usedInTemplates.length === 0) return <Text size="sm">{t.noTemplates}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={t.templatesCaption} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.template}</Table.Th>
            <Table.Th>{t.state}</Table.Th>
            <Table.Th>{t.versions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {clause.usedInTemplates.map((template) => (
            <Table.Tr key={template.name}>
              <Table.Td>{template.name}</Table.Td>
              <Table.Td>
                <Badge color={template.published ? 'green' : 'gray'} variant="light">
                  {template.published ? t.inPublished : t.onlyDrafts}
                </Badge>
              </Table.Td>
              <Table.Td>{template.versions.length > 0 ? t.versionList(template.versions) : '–'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Contracts({ contracts }: { contracts: readonly ClauseContractUse[] }) {
  if (contracts.length === 0) return <Text size="sm">{t.noContracts}</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-labelledby="usage-contracts-heading" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.contract}</Table.Th>
            <Table.Th>{t.matchId}</Table.Th>
            <Table.Th>{t.version}</Table.Th>
            <Table.Th>{t.variant}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {outdatedFirst(contracts).map((use) => (
            <Table.Tr key={`${use.contractId}:${use.documentId}`}>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={contractPath(use.contractId)}
                  aria-label={t.openContract(use.title)}
                >
                  {use.title}
                </Anchor>
              </Table.Td>
              <Table.Td>{use.matchId}</Table.Td>
              <Table.Td>
                {use.version}{' '}
                {use.outdated ? (
                  <Badge color="yellow" variant="light">
                    {t.outdated}
                  </Badge>
                ) : (
                  <Badge color="green" variant="light">
                    {t.current}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{use.variant}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * `Verwendung`: the templates placing the clause — in their published version or only in drafts — and
 * the running contracts holding it with their version, the outdated ones first; and its deletion,
 * which the server refuses while it is used.
 */
export function ClauseUsage({ clause }: { clause: ClauseDetail }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="usage-heading">
      <Stack>
        <Title order={2} size="h3" id="usage-heading">
          {t.heading}
        </Title>
        <section aria-labelledby="usage-templates-heading">
          <Title order={3} size="h4" id="usage-templates-heading" mb="xs">
            {t.templatesHeading}
          </Title>
          <Templates clause={clause} />
        </section>
        <section aria-labelledby="usage-contracts-heading">
          <Title order={3} size="h4" id="usage-contracts-heading" mb="xs">
            {t.contractsHeading}
          </Title>
          {clause.contracts.length > 0 && (
            <Text size="sm" c="dimmed" mb="xs">
              {t.contractsIntro}
            </Text>
          )}
          <Contracts contracts={clause.contracts} />
        </section>
        <DeleteClause clause={clause} />
      </Stack>
    </Paper>
  );
}
