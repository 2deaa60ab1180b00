import { Alert, Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS } from '@/lib/paths';
import { texts } from '@/texts';
import { useDocumentCheck } from './api';

/**
 * What the chosen document needs from the match but the match lacks. It informs and never blocks:
 * the document then shows blanks to fill in.
 */
export function MissingValues({ docId, matchId }: { docId: string | null; matchId: string }) {
  const check = useDocumentCheck(docId, matchId);
  const missing = check.data?.missing ?? [];
  if (missing.length === 0) return null;
  return (
    <Alert color="yellow" title={texts.forms.missingTitle} role="status">
      <List size="sm">
        {missing.map((value) => (
          <List.Item key={value.field}>{value.label}</List.Item>
        ))}
      </List>
      <Text size="sm" mt="xs">
        {texts.forms.missingHint}{' '}
        <Anchor component={Link} to={PATHS.start} size="sm">
          {texts.forms.backToStart}
        </Anchor>
      </Text>
    </Alert>
  );
}
