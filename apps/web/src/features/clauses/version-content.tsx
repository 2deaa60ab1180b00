import { Code, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ClauseVersion } from '@vertragsgenerator/domain';
import { clauseTexts } from './texts';

const t = clauseTexts.review;

/** A clause text as written, its blank lines kept, so legal reads what the editor holds. */
function ClauseText({ label, text, lang }: { label: string; text: string; lang: 'de' | 'en' }) {
  return (
    <div>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Text size="sm" lang={lang} style={{ whiteSpace: 'pre-wrap' }} c={text.trim() ? undefined : 'dimmed'}>
        {text.trim() ? text : t.emptyText}
      </Text>
    </div>
  );
}

/** `Inhalt`: the version's variants in the order they are tried, each with its rule and both texts. */
export function VersionContent({ version }: { version: ClauseVersion }) {
  const { variants, option } = version.content;
  return (
    <section aria-labelledby="content-heading">
      <Title order={3} size="h4" id="content-heading" mb="xs">
        {t.contentHeading}
      </Title>
      <Stack gap="sm">
        <Text size="sm">
          {t.option}: {t.optionLabels[option]}
        </Text>
        {variants.map((variant, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a saved version's variants never change
          <Paper key={index} withBorder p="sm">
            <Stack gap="xs">
              <Title order={4} size="h5">
                {t.variant(index, variant.name)}
              </Title>
              <Text size="sm">
                {t.rule}: {variant.rule ? <Code>{variant.rule}</Code> : t.always}
              </Text>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <ClauseText label={t.german} text={variant.de} lang="de" />
                <ClauseText label={t.english} text={variant.en} lang="en" />
              </SimpleGrid>
            </Stack>
          </Paper>
        ))}
      </Stack>
    </section>
  );
}
