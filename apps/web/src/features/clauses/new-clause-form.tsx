import { Checkbox, SimpleGrid, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { clauseTag, type NewClause, newClauseSchema } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiRequestError } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { clauseListQueryOptions, clauseQueryOptions, createClause } from './api';
import { contentOf, emptyVariant, type FieldErrors, NO_ERRORS } from './content-draft';
import { ContentForm, useContentCheck, useContentForm } from './content-form';
import { clausePath } from './paths';
import { clauseTexts } from './texts';

const t = clauseTexts.create;

/** A key already taken is the key field's problem, whatever words the server chose for it. */
function keyConflict(error: unknown): FieldErrors {
  return error instanceof ApiRequestError && error.status === 409 ? { key: [error.message] } : NO_ERRORS;
}

/**
 * `Neue Klausel`: its key, name and approval flag with the content of its first version, a draft. Nothing
 * is marked before the first attempt; then the browser's and the server's verdicts stand at their fields
 * and the focus goes to the first of them. Once created, the clause's page opens.
 */
export function NewClauseForm({ onCancel }: { onCancel: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [needsApproval, setNeedsApproval] = useState(false);
  const form = useContentForm(() => ({ variants: [emptyVariant('Standard')], option: 'always' }));
  const create = useSingleMutation({
    mutationFn: createClause,
    onSuccess: (detail) => {
      queryClient.setQueryData(clauseQueryOptions(detail.key).queryKey, detail);
      void queryClient.invalidateQueries({ queryKey: clauseListQueryOptions.queryKey, exact: true });
      navigate(clausePath(detail.key));
    },
    onError: () => form.focusFirstInvalid(),
  });

  const request: NewClause = {
    key,
    name,
    needsApproval,
    content: contentOf(form.content),
    comment: form.comment,
  };
  const taken = keyConflict(create.error);
  const check = useContentCheck(form, newClauseSchema, request, create, taken);

  return (
    <ContentForm
      texts={t}
      form={form}
      check={check}
      failure={Object.keys(taken).length > 0 ? null : create.error}
      pending={create.isPending}
      onCancel={onCancel}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t.key}
          description={t.keyDescription(clauseTag(key.trim() || 'schluessel'))}
          placeholder={t.keyPlaceholder}
          required
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(event) => setKey(event.currentTarget.value)}
          error={check.error('key')}
        />
        <TextInput
          label={t.name}
          placeholder={t.namePlaceholder}
          required
          maxLength={80}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={check.error('name')}
        />
      </SimpleGrid>
      <Checkbox
        label={t.needsApproval}
        description={t.needsApprovalDescription}
        checked={needsApproval}
        onChange={(event) => setNeedsApproval(event.currentTarget.checked)}
        error={check.error('needsApproval')}
      />
    </ContentForm>
  );
}
