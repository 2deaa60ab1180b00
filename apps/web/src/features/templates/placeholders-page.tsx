import {
  Button,
  Code,
  CopyButton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Placeholder } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { LoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { placeholdersQueryOptions } from './api';
import { templateTexts } from './texts';

const t = templateTexts.placeholders;
const KINDS = ['text', 'condition', 'loop'] as const;

function CopySyntax({ syntax }: { syntax: string }) {
  return (
    <CopyButton value={syntax}>
      {({ copied, copy }) => (
        <Button size="xs" variant="default" onClick={copy} aria-label={t.copyLabel(syntax)}>
          {copied ? t.copied : t.copy}
        </Button>
      )}
    </CopyButton>
  );
}

/** One placeholder, and for a loop the fields of its entries below it. */
function PlaceholderRows({ placeholder }: { placeholder: Placeholder }) {
  return (
    <>
      <Table.Tr>
        <Table.Td>
          <Code>{placeholder.syntax}</Code>
        </Table.Td>
        <Table.Td>{placeholder.description}</Table.Td>
        <Table.Td>{placeholder.example ?? '–'}</Table.Td>
        <Table.Td>
          <CopySyntax syntax={placeholder.syntax} />
        </Table.Td>
      </Table.Tr>
      {placeholder.item.map((field) => (
        <Table.Tr key={field.name}>
          <Table.Td pl="xl">
            <Code>{field.syntax}</Code>{' '}
            <Text span size="sm" c="dimmed">
              {t.inLoop(placeholder.name)}
            </Text>
          </Table.Td>
          <Table.Td>{field.description}</Table.Td>
          <Table.Td>{field.example ?? '–'}</Table.Td>
          <Table.Td>
            <CopySyntax syntax={field.syntax} />
          </Table.Td>
        </Table.Tr>
      ))}
    </>
  );
}

/**
 * /vorlagen/platzhalter: the field dictionary for legal staff who write templates — every
 * placeholder with its meaning, an example from a demo match, and a button that copies it.
 */
export function PlaceholdersPage() {
  const dictionary = useQuery(placeholdersQueryOptions);
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const matches = (p: Placeholder) =>
    !needle ||
    p.name.toLowerCase().includes(needle) ||
    p.description.toLowerCase().includes(needle) ||
    p.item.some((i) => i.name.toLowerCase().includes(needle) || i.description.toLowerCase().includes(needle));

  return (
    <Stack maw={1200}>
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{t.intro}</Text>
        {dictionary.data && (
          <Text c="dimmed">
            {dictionary.data.matchId ? t.examplesFrom(dictionary.data.matchId) : t.noExamples}
          </Text>
        )}
      </div>
      <TextInput
        label={t.filter}
        placeholder={t.filterPlaceholder}
        type="search"
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        w={320}
      />
      {dictionary.isPending && <SectionLoader />}
      {dictionary.isError && (
        <LoadFailed title={t.loadFailed} error={dictionary.error} onRetry={() => void dictionary.refetch()} />
      )}
      {dictionary.data &&
        (dictionary.data.placeholders.some(matches) ? (
          KINDS.map((kind) => {
            const shown = dictionary.data.placeholders.filter((p) => p.kind === kind && matches(p));
            if (shown.length === 0) return null;
            return (
              <Stack key={kind} gap="xs">
                <Title order={2}>{t.sections[kind]}</Title>
                <Text size="sm">{t.sectionIntro[kind]}</Text>
                <Table.ScrollContainer minWidth={800}>
                  <Table aria-label={t.sections[kind]} striped verticalSpacing="xs">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t.placeholder}</Table.Th>
                        <Table.Th>{t.meaning}</Table.Th>
                        <Table.Th>{t.example}</Table.Th>
                        <Table.Th>
                          <VisuallyHidden>{t.copy}</VisuallyHidden>
                        </Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {shown.map((placeholder) => (
                        <PlaceholderRows key={placeholder.name} placeholder={placeholder} />
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Stack>
            );
          })
        ) : (
          <Text>{t.none}</Text>
        ))}
    </Stack>
  );
}
