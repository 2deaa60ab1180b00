import {
  Button,
  type ComboboxItem,
  Group,
  type OptionsFilter,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type TemplateMark, templateMarkSchema } from '@vertragsgenerator/domain';
import { type FormEvent, useEffect, useState } from 'react';
import { useFirstInvalidFocus } from '@/components/form';
import { templateTexts } from './texts';

const t = templateTexts.marks;

/** A paragraph cut to about `length` characters at a word, whitespace collapsed; the rest as `…`. */
export function shortened(paragraph: string, length: number): string {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > length / 2 ? cut.slice(0, atWord) : cut).trimEnd()} …`;
}

export interface MarkFieldErrors {
  paragraph?: string | undefined;
  label?: string | undefined;
}

/**
 * `Absatz markieren`: one of the version's paragraphs not yet marked, searchable by any of its words,
 * and the name a Freigabe gives as its reason. `serverErrors` are the server's words for the new mark.
 */
export function MarkForm({
  paragraphs,
  marks,
  pending,
  serverErrors,
  onEdit,
  onAdd,
}: {
  paragraphs: readonly string[];
  marks: readonly TemplateMark[];
  pending: boolean;
  serverErrors: MarkFieldErrors;
  /** The user changed a field: the server's errors no longer apply. */
  onEdit: () => void;
  /** Resolves true once the mark is saved, false when it was refused. */
  onAdd: (mark: TemplateMark) => Promise<boolean>;
}) {
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  const [chosen, setChosen] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const [errors, setErrors] = useState<MarkFieldErrors>({});

  // The paragraphs to choose from by their place in the version; a text twice in it is one paragraph.
  const marked = new Set(marks.map((mark) => mark.paragraph));
  const seen = new Set<string>();
  const options: ComboboxItem[] = [];
  paragraphs.forEach((paragraph, index) => {
    if (!paragraph.trim() || marked.has(paragraph) || seen.has(paragraph)) return;
    seen.add(paragraph);
    options.push({ value: String(index), label: t.option(index + 1, shortened(paragraph, 90)) });
  });
  // A paragraph marked meanwhile (seen after a reload) is no longer a choice.
  const choice = options.some((option) => option.value === chosen) ? chosen : null;
  const paragraph = choice === null ? undefined : paragraphs[Number(choice)];

  const filter: OptionsFilter = ({ options: all, search }) => {
    const words = search.toLocaleLowerCase('de').split(/\s+/).filter(Boolean);
    return all.filter((option) => {
      if (!('value' in option)) return false;
      const text = `${option.label} ${paragraphs[Number(option.value)] ?? ''}`.toLocaleLowerCase('de');
      return words.every((word) => text.includes(word));
    });
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const named = templateMarkSchema.shape.label.safeParse(label);
    const found: MarkFieldErrors = {
      paragraph: paragraph === undefined ? t.chooseMissing : undefined,
      label: named.success ? undefined : named.error.issues[0]?.message,
    };
    setErrors(found);
    if (paragraph === undefined || !named.success) return focusFirstInvalid();
    if (await onAdd({ paragraph, label: named.data })) {
      setChosen(null);
      setLabel('');
    }
  }

  // A field the server refused gets the focus once its message shows.
  const refused = serverErrors.paragraph ?? serverErrors.label;
  useEffect(() => {
    if (refused) focusFirstInvalid();
  }, [refused, focusFirstInvalid]);

  const paragraphError = errors.paragraph ?? serverErrors.paragraph;
  const labelError = errors.label ?? serverErrors.label;

  return (
    <form
      ref={container}
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby="mark-add-heading"
    >
      <Stack gap="sm">
        <Title order={4} size="h5" id="mark-add-heading">
          {t.addHeading}
        </Title>
        {options.length === 0 && marks.length > 0 ? (
          <Text size="sm">{t.allMarked}</Text>
        ) : (
          <>
            <Group align="flex-start" grow>
              <Select
                label={t.choose}
                description={t.chooseDescription}
                placeholder={t.choosePlaceholder}
                data={options}
                value={choice}
                onChange={(value) => {
                  setChosen(value);
                  setErrors((current) => ({ ...current, paragraph: undefined }));
                  onEdit();
                }}
                filter={filter}
                searchable
                clearable
                required
                nothingFoundMessage={t.nothingFound}
                maxDropdownHeight={320}
                error={paragraphError}
              />
              <TextInput
                label={t.label}
                description={t.labelDescription}
                placeholder={t.labelPlaceholder}
                value={label}
                onChange={(event) => {
                  setLabel(event.currentTarget.value);
                  setErrors((current) => ({ ...current, label: undefined }));
                  onEdit();
                }}
                maxLength={60}
                required
                error={labelError}
              />
            </Group>
            {paragraph !== undefined && (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                {paragraph}
              </Text>
            )}
            <Group>
              <Button type="submit" loading={pending}>
                {t.add}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </form>
  );
}
