import { isValidMatchId, MATCH_ID_PREFIX } from '@vertragsgenerator/domain';

const ID_CHARACTERS = /^[A-Za-z0-9_-]+$/;

/**
 * Why a match ID, already normalised with `normalizeMatchId`, is not valid: German, for the user who
 * typed it or the file that carries it. Undefined when it is valid.
 */
export function matchIdProblem(matchId: string): string | undefined {
  if (isValidMatchId(matchId)) return undefined;
  const afterPrefix = matchId.slice(MATCH_ID_PREFIX.length);
  if (afterPrefix === '') return 'Die Match-ID ist leer.';
  if (!ID_CHARACTERS.test(afterPrefix)) {
    return `Die Match-ID darf nach „${MATCH_ID_PREFIX}“ nur Buchstaben, Ziffern, „-“ und „_“ enthalten, z. B. ${MATCH_ID_PREFIX}10001.`;
  }
  return 'Die Match-ID ist zu lang.';
}
