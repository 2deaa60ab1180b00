import { Button, Fieldset, Group, Radio, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  CLAUSE_OPTION_LABELS,
  CLAUSE_OPTIONS,
  CLAUSE_TEXT_MAX,
  type ClauseOption,
} from '@vertragsgenerator/domain';
import { useEffect, useId, useState } from 'react';
import { type ContentDraft, emptyVariant, moveVariant, type VariantDraft } from './content-draft';
import { MarkupHelp, RuleHelp } from './editor-help';
import { editorTexts } from './editor-texts';

const t = editorTexts.content;
/** As the domain allows. */
const MAX_VARIANTS = 10;

type Control = 'name' | 'up' | 'down';

/**
 * A version's content: its variants in order, each with name, rule and both texts, and whether the
 * person generating may switch the clause off. `error` answers a field's message by its place in the
 * content (`variants.1.rule`).
 */
export function ContentEditor({
  value,
  onChange,
  error,
}: {
  value: ContentDraft;
  onChange: (next: ContentDraft) => void;
  error: (field: string) => string | undefined;
}) {
  const prefix = useId();
  const controlId = (id: number, control: Control) => `${prefix}-${id}-${control}`;
  // A moved, added or removed variant takes its buttons' DOM node along or away: the keyboard's place
  // is given back explicitly, once the list has rendered anew.
  const [focus, setFocus] = useState<{ id: number; control: Control } | { control: 'add' } | undefined>();
  useEffect(() => {
    if (!focus) return;
    if (focus.control === 'add') document.getElementById(`${prefix}-add`)?.focus();
    else {
      const wanted = document.getElementById(controlId(focus.id, focus.control)) as HTMLButtonElement | null;
      const other = focus.control === 'up' ? 'down' : focus.control === 'down' ? 'up' : undefined;
      if (wanted && !wanted.disabled) wanted.focus();
      else if (other) document.getElementById(controlId(focus.id, other))?.focus();
    }
    setFocus(undefined);
  });

  const variants = value.variants;
  const setVariants = (next: VariantDraft[]) => onChange({ ...value, variants: next });
  const update = (id: number, patch: Partial<VariantDraft>) =>
    setVariants(variants.map((variant) => (variant.id === id ? { ...variant, ...patch } : variant)));

  function move(index: number, by: -1 | 1) {
    const variant = variants[index];
    if (!variant) return;
    setVariants(moveVariant(variants, index, by));
    setFocus({ id: variant.id, control: by === -1 ? 'up' : 'down' });
  }
  function remove(id: number) {
    setVariants(variants.filter((variant) => variant.id !== id));
    setFocus({ control: 'add' });
  }
  function add() {
    const variant = emptyVariant();
    setVariants([...variants, variant]);
    setFocus({ id: variant.id, control: 'name' });
  }

  return (
    <Stack gap="sm">
      <Fieldset legend={t.variants} variant="unstyled">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t.variantsIntro}
          </Text>
          <div>
            <RuleHelp />
            <MarkupHelp />
          </div>
          {variants.map((variant, index) => (
            <Fieldset key={variant.id} legend={t.variant(index, variant.name)}>
              <Stack gap="xs">
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput
                    id={controlId(variant.id, 'name')}
                    label={t.name}
                    placeholder={t.namePlaceholder}
                    required
                    maxLength={60}
                    value={variant.name}
                    onChange={(event) => update(variant.id, { name: event.currentTarget.value })}
                    error={error(`variants.${index}.name`)}
                  />
                  <TextInput
                    label={t.rule}
                    description={t.ruleDescription}
                    placeholder={t.rulePlaceholder}
                    maxLength={500}
                    value={variant.rule}
                    onChange={(event) => update(variant.id, { rule: event.currentTarget.value })}
                    error={error(`variants.${index}.rule`)}
                    styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                    spellCheck={false}
                    autoComplete="off"
                  />
                </SimpleGrid>
                <SimpleGrid cols={{ base: 1, md: 2 }}>
                  <Textarea
                    label={t.de}
                    rows={7}
                    resize="vertical"
                    maxLength={CLAUSE_TEXT_MAX}
                    lang="de"
                    value={variant.de}
                    onChange={(event) => update(variant.id, { de: event.currentTarget.value })}
                    error={error(`variants.${index}.de`)}
                  />
                  <Textarea
                    label={t.en}
                    rows={7}
                    resize="vertical"
                    maxLength={CLAUSE_TEXT_MAX}
                    lang="en"
                    value={variant.en}
                    onChange={(event) => update(variant.id, { en: event.currentTarget.value })}
                    error={error(`variants.${index}.en`)}
                  />
                </SimpleGrid>
                <Group gap="xs">
                  <Button
                    id={controlId(variant.id, 'up')}
                    variant="default"
                    size="xs"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={t.up(index)}
                  >
                    <span aria-hidden="true">↑</span> {t.upShort}
                  </Button>
                  <Button
                    id={controlId(variant.id, 'down')}
                    variant="default"
                    size="xs"
                    disabled={index === variants.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={t.down(index)}
                  >
                    <span aria-hidden="true">↓</span> {t.downShort}
                  </Button>
                  <Button
                    variant="subtle"
                    color="red.9"
                    // Subtle buttons draw their text a shade lighter than `color`: red 9 keeps it readable.
                    c="red.9"
                    size="xs"
                    disabled={variants.length === 1}
                    onClick={() => remove(variant.id)}
                    aria-label={t.remove(index)}
                  >
                    {t.removeShort}
                  </Button>
                </Group>
              </Stack>
            </Fieldset>
          ))}
          {error('variants') && (
            <Text c="red.8" size="sm">
              {error('variants')}
            </Text>
          )}
          <Group>
            <Button
              id={`${prefix}-add`}
              variant="light"
              onClick={add}
              disabled={variants.length >= MAX_VARIANTS}
            >
              {t.add}
            </Button>
          </Group>
        </Stack>
      </Fieldset>
      <Radio.Group
        label={t.option}
        value={value.option}
        onChange={(option) => onChange({ ...value, option: option as ClauseOption })}
        error={error('option')}
      >
        <Stack gap={6} mt="xs">
          {CLAUSE_OPTIONS.map((option) => (
            <Radio key={option} value={option} label={CLAUSE_OPTION_LABELS[option]} />
          ))}
        </Stack>
      </Radio.Group>
    </Stack>
  );
}
