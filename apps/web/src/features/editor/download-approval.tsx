import { Alert, List, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  approvalReasons,
  approvalReasonText,
  approvalRulesViewSchema,
  CATALOGUE,
  type StoredDocument,
} from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';
import { matchQueryOptions } from '@/lib/match-api';

const t = {
  title: 'Vor der Weitergabe braucht dieses Dokument eine Freigabe',
  text: 'Lass es von der Leitung oder Legal prüfen, bevor du es herunterlädst und weitergibst.',
};

/**
 * Above the editor's download of a final document (not one sent for signature, where the sender view
 * asks for the approval): the rules' reasons in the same words, from the rules, the match's rates, the
 * key and whether a later version than the generated one exists.
 */
export function DownloadApprovalNotice({ document }: { document: StoredDocument }) {
  const final = CATALOGUE.get(document.docKey)?.form !== 'docusign';
  const rules = useQuery({
    queryKey: ['approval-rules'],
    queryFn: ({ signal }) => apiJson('/backend/approval-rules', approvalRulesViewSchema, { signal }),
    enabled: final,
  });
  const match = useQuery(matchQueryOptions(final ? document.matchId : null));
  // Not known yet, or not to be known: the server's rules decide, and this only tells in advance.
  if (!final || !rules.data || !match.data) return null;
  const reasons = approvalReasons(rules.data.rules, {
    match: match.data,
    docKey: document.docKey,
    editedText: document.versions.some((version) => version.version > 1),
  });
  if (reasons.length === 0) return null;
  return (
    <Alert color="yellow" title={t.title}>
      <Stack gap="xs">
        <List size="sm" spacing={2}>
          {reasons.map((reason) => (
            <List.Item key={approvalReasonText(reason)}>{approvalReasonText(reason)}</List.Item>
          ))}
        </List>
        <Text size="sm">{t.text}</Text>
      </Stack>
    </Alert>
  );
}
