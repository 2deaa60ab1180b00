import { Alert, Button, List, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TemplateMark } from '@vertragsgenerator/domain';
import { useId, useRef, useState } from 'react';
import { LoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { changeMarks, marksQueryOptions } from './api';
import { type MarkFieldErrors, MarkForm, shortened } from './mark-form';
import { templateTexts } from './texts';

const t = templateTexts.marks;

/** One change of the marks: the whole new list, and the mark added or removed. */
interface Change {
  kind: 'add' | 'remove';
  mark: TemplateMark;
  marks: TemplateMark[];
}

/** The server's words for the mark being added: a 400's `fields` at its place in the list sent. */
function fieldErrorsOf(error: Error | null, change: Change | undefined): MarkFieldErrors {
  if (!(error instanceof ApiRequestError) || change?.kind !== 'add') return {};
  const index = change.marks.length - 1;
  return {
    paragraph: error.fields[`marks.${index}.paragraph`]?.[0],
    label: error.fields[`marks.${index}.label`]?.[0],
  };
}

/**
 * `Freigabe bei Änderung`: the paragraphs of a version marked „Änderung braucht Freigabe“ (Haftung,
 * Kundenschutz, …), to remove, and one more to mark. Each change sends the whole new list.
 */
export function VersionMarks({ name, version }: { name: string; version: number }) {
  const queryClient = useQueryClient();
  const options = marksQueryOptions(name, version);
  const query = useQuery(options);
  const [done, setDone] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const change = useMutation({
    mutationFn: ({ marks }: Change) => changeMarks(name, version, marks),
    onMutate: () => setDone(''),
    onSuccess: (saved, { kind, mark }) => {
      queryClient.setQueryData(options.queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: options.queryKey, exact: true });
      setDone(kind === 'add' ? t.added(mark.label) : t.removed(mark.label));
      // The button pressed is gone with its row: the keyboard goes on from the section's start.
      if (kind === 'remove') heading.current?.focus();
    },
  });

  const marks = query.data?.marks ?? [];
  const fieldErrors = fieldErrorsOf(change.error, change.variables);
  const atFields = Boolean(fieldErrors.paragraph || fieldErrors.label);

  async function add(mark: TemplateMark): Promise<boolean> {
    try {
      await change.mutateAsync({ kind: 'add', mark, marks: [...marks, mark] });
      return true;
    } catch {
      return false;
    }
  }

  function remove(mark: TemplateMark) {
    const rest = marks.filter((other) => other.paragraph !== mark.paragraph);
    change.mutate({ kind: 'remove', mark, marks: rest });
  }

  let body: React.ReactNode;
  if (query.isPending) body = <SectionLoader height={120} />;
  else if (query.isError) {
    body = <LoadFailed title={t.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else {
    const removing = change.isPending && change.variables?.kind === 'remove' ? change.variables.mark : null;
    body = (
      <Stack>
        {marks.length === 0 ? (
          <Text size="sm">{t.none}</Text>
        ) : (
          <MarkList
            marks={marks}
            removing={removing?.paragraph}
            disabled={change.isPending}
            onRemove={remove}
          />
        )}
        <div aria-live="polite">
          {done && (
            <Text size="sm" c="green.8">
              {done}
            </Text>
          )}
          {change.isError && !atFields && <ChangeFailed error={change.error} />}
        </div>
        <MarkForm
          paragraphs={query.data.paragraphs}
          marks={marks}
          pending={change.isPending}
          serverErrors={fieldErrors}
          onEdit={() => {
            if (change.isError) change.reset();
          }}
          onAdd={add}
        />
      </Stack>
    );
  }

  return (
    <section aria-labelledby="marks-heading">
      <Title order={3} size="h4" id="marks-heading" mb="xs" ref={heading} tabIndex={-1}>
        {t.heading}
      </Title>
      <Text size="sm" mb="sm">
        {t.intro}
      </Text>
      {body}
    </section>
  );
}

/** A refused change in the server's words, with whatever it named about single marks. */
function ChangeFailed({ error }: { error: Error }) {
  const details = error instanceof ApiRequestError ? Object.values(error.fields).flat() : [];
  return (
    <Alert color="red" title={t.changeFailed}>
      <Text size="sm">{errorMessage(error)}</Text>
      {details.length > 0 && (
        <List size="sm" mt="xs">
          {details.map((detail) => (
            <List.Item key={detail}>{detail}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

function MarkList({
  marks,
  removing,
  disabled,
  onRemove,
}: {
  marks: readonly TemplateMark[];
  removing: string | undefined;
  disabled: boolean;
  onRemove: (mark: TemplateMark) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table aria-label={t.listLabel} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={200}>{t.name}</Table.Th>
            <Table.Th>{t.paragraph}</Table.Th>
            <Table.Th w={140}>{t.actions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {marks.map((mark) => (
            <MarkRow
              key={mark.paragraph}
              mark={mark}
              removing={removing === mark.paragraph}
              disabled={disabled}
              onRemove={() => onRemove(mark)}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A mark: its name, its paragraph shortened with the whole text a click away, and `Entfernen`. */
function MarkRow({
  mark,
  removing,
  disabled,
  onRemove,
}: {
  mark: TemplateMark;
  removing: boolean;
  disabled: boolean;
  onRemove: () => void;
}) {
  const [whole, setWhole] = useState(false);
  const textId = useId();
  const short = shortened(mark.paragraph, 160);
  const cut = short !== mark.paragraph.replace(/\s+/g, ' ').trim();
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {mark.label}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" id={textId} style={{ whiteSpace: 'pre-wrap' }}>
          {whole || !cut ? mark.paragraph : short}
        </Text>
        {cut && (
          <Button
            variant="subtle"
            size="compact-xs"
            mt={4}
            aria-expanded={whole}
            aria-controls={textId}
            aria-label={whole ? t.showLessLabel(mark.label) : t.showAllLabel(mark.label)}
            onClick={() => setWhole((current) => !current)}
          >
            {whole ? t.showLess : t.showAll}
          </Button>
        )}
      </Table.Td>
      <Table.Td>
        <Button
          variant="default"
          size="xs"
          aria-label={t.removeLabel(mark.label)}
          loading={removing}
          disabled={disabled && !removing}
          onClick={onRemove}
        >
          {t.remove}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
