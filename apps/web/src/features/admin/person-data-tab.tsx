import { Alert, Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import {
  FULL_NAME,
  PERSON_SOURCE_LABELS,
  type PersonErase,
  type PersonSearch,
} from '@vertragsgenerator/domain';
import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { type ErasedPerson, erasePerson, exportPerson, searchPerson } from './privacy-api';
import { privacyTexts } from './privacy-texts';
import { dateTime } from './texts';

const t = privacyTexts.person;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whom the searched words name for an erase: an address, a full name, or nobody (a first name alone). */
function erasable(query: string | undefined): ErasedPerson | null {
  if (!query) return null;
  if (EMAIL.test(query)) return { email: query.toLowerCase() };
  return !query.includes('@') && FULL_NAME.test(query) ? { name: query } : null;
}

/** /verwaltung → Personendaten: find a person, export what names them, erase what no duty keeps. */
export function PersonDataTab() {
  const [query, setQuery] = useState('');
  const [confirming, setConfirming] = useState(false);
  const search = useMutation({ mutationFn: (value: string) => searchPerson(value) });
  const exporting = useMutation({
    mutationFn: (value: string) => exportPerson(value),
    onSuccess: (made) =>
      notifications.show({
        color: 'green',
        message: t.exported(made.records, made.files, dateTime.format(new Date(made.expiresAt))),
      }),
  });
  const erase = useMutation({
    mutationFn: (person: ErasedPerson) => erasePerson(person),
    onSuccess: () => setConfirming(false),
  });
  const person = erasable(search.data?.query);
  const personLabel = person ? ('email' in person ? person.email : person.name) : '';

  return (
    <Stack maw={1100}>
      <Text>{t.intro}</Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          erase.reset();
          search.mutate(query.trim());
        }}
      >
        <Group align="flex-end">
          <TextInput
            label={t.query}
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
            style={{ flex: 1 }}
            maw={480}
          />
          <Button type="submit" loading={search.isPending}>
            {t.search}
          </Button>
        </Group>
      </form>
      {search.isError && <Alert color="red">{errorMessage(search.error)}</Alert>}
      {search.data && (
        <>
          <Hits result={search.data} />
          <Group>
            <Button
              variant="default"
              loading={exporting.isPending}
              onClick={() => exporting.mutate(search.data.query)}
            >
              {t.exportButton}
            </Button>
            <Button color="red" variant="outline" disabled={!person} onClick={() => setConfirming(true)}>
              {t.eraseButton}
            </Button>
          </Group>
          {!person && (
            <Text size="sm" c="dimmed">
              {t.eraseNeedsEmail}
            </Text>
          )}
          {exporting.isError && <Alert color="red">{errorMessage(exporting.error)}</Alert>}
        </>
      )}
      {erase.isError && !confirming && (
        <Alert color="red" role="alert">
          {errorMessage(erase.error)}
        </Alert>
      )}
      {erase.data && <EraseResult result={erase.data} />}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t.confirmTitle}>
        <Stack>
          <Text>{t.confirmText(personLabel)}</Text>
          {person && 'name' in person && <Text size="sm">{t.confirmByName}</Text>}
          {erase.isError && <Alert color="red">{errorMessage(erase.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t.cancel}
            </Button>
            <Button color="red" loading={erase.isPending} onClick={() => person && erase.mutate(person)}>
              {t.confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function Hits({ result }: { result: PersonSearch }) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Title order={2} id={headingId}>
        {t.hits(result.hits.length)}
      </Title>
      {result.truncated.length > 0 && (
        <Alert color="yellow">
          {t.truncated(result.truncated.map((s) => PERSON_SOURCE_LABELS[s]).join(', '))}
        </Alert>
      )}
      {result.hits.length === 0 ? (
        <Text c="dimmed">{t.noHits}</Text>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table striped aria-labelledby={headingId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.source}</Table.Th>
                <Table.Th>{t.match}</Table.Th>
                <Table.Th>{t.where}</Table.Th>
                <Table.Th>{t.value}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.hits.map((hit, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one place can hold several hits; the list only changes as a whole
                <Table.Tr key={`${hit.source}-${hit.id}-${index}`}>
                  <Table.Td>{PERSON_SOURCE_LABELS[hit.source]}</Table.Td>
                  <Table.Td>{hit.matchId ?? ''}</Table.Td>
                  <Table.Td>{hit.where}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{hit.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function EraseResult({ result }: { result: PersonErase }) {
  const erasedId = useId();
  const retainedId = useId();
  return (
    <Stack>
      <Stack component="section" aria-labelledby={erasedId} gap="xs">
        <Title order={2} id={erasedId}>
          {t.erasedHeading}
        </Title>
        {result.erased.length === 0 ? (
          <Text c="dimmed">{t.nothingErased}</Text>
        ) : (
          <ul>
            {result.erased.map((item) => (
              <li key={item.what}>
                {item.what}: {item.count}
              </li>
            ))}
          </ul>
        )}
      </Stack>
      {result.retained.length > 0 && (
        <Stack component="section" aria-labelledby={retainedId} gap="xs">
          <Title order={2} id={retainedId}>
            {t.retainedHeading}
          </Title>
          <Table striped aria-labelledby={retainedId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.retainedWhat}</Table.Th>
                <Table.Th>{t.match}</Table.Th>
                <Table.Th>{t.retainedRule}</Table.Th>
                <Table.Th>{t.retainedUntil}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.retained.map((item) => (
                <Table.Tr key={`${item.what}-${item.id}`}>
                  <Table.Td>{item.what}</Table.Td>
                  <Table.Td>{item.matchId ?? ''}</Table.Td>
                  <Table.Td>{item.rule}</Table.Td>
                  <Table.Td>{item.until ? dateTime.format(new Date(item.until)) : t.untilNever}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Stack>
  );
}
