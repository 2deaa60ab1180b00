import { Anchor, Code, List, Stack, Table, Text } from '@mantine/core';
import { RULE_FIELDS, type RuleField } from '@vertragsgenerator/domain';
import { Link } from 'react-router';
import { PATHS } from '@/lib/paths';
import { editorTexts } from './editor-texts';

const r = editorTexts.ruleHelp;
const m = editorTexts.markupHelp;

const fields = Object.entries(RULE_FIELDS) as [string, RuleField][];

/** Folded until asked for: the editor stays short for those who know the syntax. */
function Help({ summary, children }: { summary: string; children: React.ReactNode }) {
  return (
    <details>
      <summary>
        <Text component="span" size="sm" fw={500}>
          {summary}
        </Text>
      </summary>
      <Stack gap="xs" mt="xs" mb="sm">
        {children}
      </Stack>
    </details>
  );
}

/** The rule syntax and every field a rule may test, with the values legal writes for a choice. */
export function RuleHelp() {
  return (
    <Help summary={r.summary}>
      <Text size="sm">{r.intro}</Text>
      <List size="sm" spacing={2}>
        {r.operators.map(([operator, meaning]) => (
          <List.Item key={operator}>
            <Code>{operator}</Code> – {meaning}
          </List.Item>
        ))}
      </List>
      <Text size="sm">{r.values}</Text>
      <Text size="sm">{r.examples}</Text>
      <List size="sm" spacing={2}>
        {r.exampleList.map((example) => (
          <List.Item key={example}>
            <Code>{example}</Code>
          </List.Item>
        ))}
      </List>
      <Table.ScrollContainer minWidth={560}>
        <Table aria-label={r.fields} verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{r.field}</Table.Th>
              <Table.Th>{r.meaning}</Table.Th>
              <Table.Th>{r.fieldValues}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map(([name, field]) => (
              <Table.Tr key={name}>
                <Table.Td>
                  <Code>{name}</Code>
                </Table.Td>
                <Table.Td>{field.description}</Table.Td>
                <Table.Td>
                  {field.values
                    ? field.values.map((value, index) => (
                        <span key={value}>
                          {index > 0 && ', '}
                          <Code>{value}</Code>
                        </span>
                      ))
                    : r.kinds[field.kind]}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Help>
  );
}

/** The clause texts' small markup, and where the placeholders are listed. */
export function MarkupHelp() {
  return (
    <Help summary={m.summary}>
      <List size="sm" spacing={2}>
        {m.items.map(([markup, meaning]) => (
          <List.Item key={markup}>
            <Code>{markup}</Code> – {meaning}
          </List.Item>
        ))}
      </List>
      {/* In a new tab: the editor's unsaved text stays where it is. */}
      <Anchor component={Link} to={PATHS.placeholders} size="sm" target="_blank">
        {m.placeholders}
      </Anchor>
    </Help>
  );
}
