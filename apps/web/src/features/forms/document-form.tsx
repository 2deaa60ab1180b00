import { Alert, Button, Group, Stack } from '@mantine/core';
import { catalogueEntry } from '@vertragsgenerator/domain';
import { type FormEvent, type ReactNode, useState } from 'react';
import { FormStatus, type FormValidation, useFirstInvalidFocus } from '@/components/form';
import { type GenerationTarget, useGenerationFlow } from '@/lib/document-generation';
import { texts } from '@/texts';
import { useDocumentCheck } from './api';
import { MissingValues } from './missing-values';
import { clauseSwitches, OptionalClauses } from './optional-clauses';
import { usePreloadedEditor } from './preload-editor';

export interface DocumentFormProps {
  matchId: string;
  /** The catalogue key the current choices name; null while a choice is missing. */
  docId: string | null;
  target: GenerationTarget;
  validation: FormValidation;
  /** The values the server fills into the template (`dataList`), from the current choices. */
  dataList: () => Record<string, unknown>;
  children: ReactNode;
}

/**
 * What every document form shares: validation on submit, `Ungültige Auswahl` for a
 * choice outside the catalogue, the values the match lacks, and the generation flow.
 */
export function DocumentForm({ matchId, docId, target, validation, dataList, children }: DocumentFormProps) {
  const generation = useGenerationFlow();
  usePreloadedEditor(target);
  const [invalidChoice, setInvalidChoice] = useState<string | null>(null);
  const offered = useDocumentCheck(docId, matchId).data?.optionalClauses ?? [];
  const [chosenClauses, setChosenClauses] = useState<Record<string, boolean>>({});
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (generation.running) return;
    if (!validation.attemptSubmit()) {
      focusFirstInvalid();
      return;
    }
    if (docId === null || catalogueEntry(docId) === undefined) {
      setInvalidChoice(docId ?? '');
      return;
    }
    setInvalidChoice(null);
    const clauses = clauseSwitches(offered, chosenClauses);
    const outcome = await generation.generate({
      target,
      docId,
      matchId,
      dataList: { ...dataList(), ...(offered.length > 0 ? { klauseln: clauses } : {}) },
    });
    if (outcome && !outcome.ok) {
      validation.setServerFields(outcome.fields);
      focusFirstInvalid();
    }
  }

  return (
    <form ref={container} onSubmit={handleSubmit} noValidate>
      <Stack>
        {children}
        <OptionalClauses
          clauses={offered}
          chosen={chosenClauses}
          onChange={(key, checked) => setChosenClauses((before) => ({ ...before, [key]: checked }))}
        />
        <MissingValues docId={docId} matchId={matchId} />
        <FormStatus validation={validation} />
        {invalidChoice !== null && invalidChoice === (docId ?? '') && (
          <Alert color="red" role="alert">
            {texts.forms.invalidChoice}
          </Alert>
        )}
        {generation.status}
        <Group>
          <Button type="submit" loading={generation.running}>
            {texts.forms.submit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
