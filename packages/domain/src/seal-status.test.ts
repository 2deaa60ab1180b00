import { describe, expect, it } from 'vitest';
import { SEAL_LEVELS } from './seal-check.js';
import { SEAL_LEVEL_EXPLANATIONS, SEAL_PROBLEMS, sealWords } from './seal-status.js';

describe('sealWords', () => {
  it('names every level with what it proves, never calling the timestamp qualified', () => {
    for (const level of SEAL_LEVELS) {
      expect(sealWords({ state: 'sealed', level })).toEqual({
        status: `Versiegelt · PAdES ${level}`,
        explanation: SEAL_LEVEL_EXPLANATIONS[level],
      });
      expect(SEAL_LEVEL_EXPLANATIONS[level]).not.toMatch(/qualifiziert/i);
    }
    expect(SEAL_LEVEL_EXPLANATIONS['B-B']).toMatch(/^Siegel ohne vertrauenswürdige Zeit/);
    expect(SEAL_LEVEL_EXPLANATIONS['B-LTA']).toMatch(/^Siegel mit Zeitstempel und Langzeitnachweis/);
  });

  it('says pending with the reason in German, and who is waited for', () => {
    expect(sealWords({ state: 'pending', problem: null }).status).toBe('Siegel ausstehend');
    expect(sealWords({ state: 'pending', problem: 'timestamp_unreachable' }).status).toBe(
      'Siegel ausstehend: Zeitstempeldienst nicht erreichbar – wird erneut versucht',
    );
    expect(sealWords({ state: 'pending', problem: null }, 'docusign').status).toBe(
      'Signiertes PDF von DocuSign ausstehend',
    );
    for (const problem of SEAL_PROBLEMS) {
      expect(sealWords({ state: 'pending', problem }).status).toMatch(
        /^Siegel ausstehend: .+ – wird erneut versucht$/,
      );
    }
  });

  it("names DocuSign's seal, and claims no level for one sealed before levels were recorded", () => {
    expect(sealWords({ state: 'docusign' }, 'docusign')).toEqual({
      status: 'Von DocuSign versiegelt',
      explanation: null,
    });
    expect(sealWords({ state: 'sealed', level: null })).toEqual({ status: 'Versiegelt', explanation: null });
  });
});
