import { Button, Text } from '@mantine/core';
import type { ClauseDetail } from '@vertragsgenerator/domain';
import { VersionTable as Versions } from '@/components/version-library';
import { clauseTexts } from './texts';

const t = clauseTexts.clause;

/** The id of `Neue Version`, which takes the focus back when the editor is closed. */
export const NEW_VERSION_BUTTON = 'new-clause-version';

/** Every version of a clause, newest first, with its status and problems, each to look at. */
export function VersionTable({
  clause,
  selected,
  onSelect,
  writing,
  onWrite,
}: {
  clause: ClauseDetail;
  selected: number | undefined;
  onSelect: (version: number) => void;
  /** The editor of a new version is open. */
  writing: boolean;
  onWrite: () => void;
}) {
  return (
    <Versions
      versions={clause.versions}
      selected={selected}
      onSelect={onSelect}
      createdLabel={t.saved}
      headingAction={
        !writing &&
        selected !== undefined && (
          <Button id={NEW_VERSION_BUTTON} onClick={onWrite}>
            {t.newVersion}
          </Button>
        )
      }
      comment={(version) => (
        <>
          <Text size="sm">{version.comment || '–'}</Text>
          {version.publishComment && (
            <Text size="sm" c="dimmed">
              {t.publishComment(version.publishComment)}
            </Text>
          )}
        </>
      )}
    />
  );
}
