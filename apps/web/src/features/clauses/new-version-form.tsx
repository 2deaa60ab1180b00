import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type ClauseVersion, type NewClauseVersion, newClauseVersionSchema } from '@vertragsgenerator/domain';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { CLAUSES_QUERY_KEY, saveVersion } from './api';
import { contentOf, draftOf } from './content-draft';
import { ContentForm, useContentCheck, useContentForm } from './content-form';
import { editorTexts } from './editor-texts';

const t = editorTexts.newVersion;

/**
 * `Neue Version`: the content of the version under review to change — variants, rules, texts, the
 * option — and what changes. Saved as a draft the server checks at once; its problems show with it
 * (`onSaved` selects it).
 */
export function NewVersionForm({
  clauseKey,
  base,
  onCancel,
  onSaved,
}: {
  clauseKey: string;
  base: ClauseVersion;
  onCancel: () => void;
  onSaved: (version: ClauseVersion) => void;
}) {
  const queryClient = useQueryClient();
  const form = useContentForm(() => draftOf(base.content));
  const save = useSingleMutation({
    mutationFn: (version: NewClauseVersion) => saveVersion(clauseKey, version),
    onSuccess: async (saved) => {
      // The list's draft count and the clause's versions both changed.
      await queryClient.invalidateQueries({ queryKey: CLAUSES_QUERY_KEY });
      notifications.show({
        color: saved.problems.length === 0 ? 'green' : 'yellow',
        message: t.saved(saved.version, saved.problems.length),
      });
      onSaved(saved);
    },
    onError: () => form.focusFirstInvalid(),
  });

  const request: NewClauseVersion = { content: contentOf(form.content), comment: form.comment };
  const check = useContentCheck(form, newClauseVersionSchema, request, save);

  return (
    <ContentForm
      texts={{ ...t, intro: t.intro(base.version) }}
      form={form}
      check={check}
      failure={save.error}
      pending={save.isPending}
      onCancel={onCancel}
    />
  );
}
