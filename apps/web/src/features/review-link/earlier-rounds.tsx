import { Badge, Box, Group, Stack, Text, Title } from '@mantine/core';
import type { ReviewerView, SuggestionOutcome } from '@vertragsgenerator/domain';
import type { ReviewTexts } from './texts';

const OUTCOME_COLORS: Record<SuggestionOutcome, string> = {
  accepted: 'green',
  rejected: 'red',
  open: 'gray',
};

/** What became of the reviewer's suggestions in the rounds before this one; the replies are among the comments. */
export function EarlierRounds({ earlier, texts }: { earlier: ReviewerView['earlier']; texts: ReviewTexts }) {
  if (earlier.length === 0) return null;
  return (
    <Stack component="section" aria-labelledby="review-earlier-heading">
      <Title order={2} id="review-earlier-heading" fz={{ base: 'h4', sm: 'h2' }}>
        {texts.earlierHeading}
      </Title>
      <Text size="sm">{texts.earlierReplies}</Text>
      {[...earlier]
        .sort((a, b) => a.round - b.round)
        .map(({ round, suggestions }) => (
          <Stack key={round} gap="xs">
            <Title order={3} fz={{ base: 'h5', sm: 'h4' }}>
              {texts.earlierRound(round)}
            </Title>
            {suggestions.length === 0 ? (
              <Text c="dimmed" size="sm">
                {texts.noEarlierSuggestions}
              </Text>
            ) : (
              <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
                {suggestions.map((suggestion, index) => (
                  <Box
                    component="li"
                    // The reviewer's view names no suggestion's id; their order is the server's and stays.
                    // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders or changes in place
                    key={index}
                    p="sm"
                    style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8 }}
                  >
                    <Stack gap={4}>
                      <Group gap="xs" justify="space-between" wrap="wrap">
                        <Text size="sm" fw={600}>
                          {suggestion.kind === 'insert' ? texts.inserted : texts.deleted}
                        </Text>
                        <Badge color={OUTCOME_COLORS[suggestion.outcome]} variant="light">
                          {texts.outcome[suggestion.outcome]}
                        </Badge>
                      </Group>
                      <Text
                        component={suggestion.kind === 'insert' ? 'ins' : 'del'}
                        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                      >
                        {suggestion.text}
                      </Text>
                      {suggestion.context && (
                        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {texts.inParagraph(suggestion.context)}
                        </Text>
                      )}
                    </Stack>
                  </Box>
                ))}
              </Stack>
            )}
          </Stack>
        ))}
    </Stack>
  );
}
