import { spawnSync } from 'node:child_process';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { type ProcessSettings, warnOfMissingMemorySettings } from './memory-settings.js';
import { memorySettingGauge } from './metrics.js';

const MALLOC = { MALLOC_MMAP_THRESHOLD_: '4194304' };
const SEMI_SPACE = '--max-semi-space-size=2';

/** The warnings logged at start and the gauge's values for a process with these settings. */
async function startWith(settings: ProcessSettings) {
  const warnings: { details: object; message: string }[] = [];
  warnOfMissingMemorySettings({ warn: (details, message) => warnings.push({ details, message }) }, settings);
  const registry = new Registry();
  memorySettingGauge(registry, settings);
  const text = await registry.metrics();
  const value = (setting: string) => {
    const series = `memory_setting_missing{setting="${setting}"} `;
    const line = text.split('\n').find((candidate) => candidate.startsWith(series));
    return line === undefined ? undefined : Number(line.slice(series.length));
  };
  return {
    warnings,
    text,
    malloc: value('MALLOC_MMAP_THRESHOLD_'),
    semiSpace: value('--max-semi-space-size'),
  };
}

describe('memory settings of npm start and the image', () => {
  it('warns of nothing where both are set, in NODE_OPTIONS or on the command line', async () => {
    for (const settings of [
      { env: { ...MALLOC, NODE_OPTIONS: SEMI_SPACE }, execArgv: [] },
      { env: { ...MALLOC, NODE_OPTIONS: `--enable-source-maps ${SEMI_SPACE}` }, execArgv: [] },
      { env: MALLOC, execArgv: ['--expose-gc', SEMI_SPACE] },
      { env: MALLOC, execArgv: ['--max-semi-space-size', '4'] },
      { env: { ...MALLOC, NODE_OPTIONS: '--max_semi_space_size=2' }, execArgv: [] },
    ]) {
      const start = await startWith(settings);
      expect(start.warnings, JSON.stringify(settings)).toEqual([]);
      expect([start.malloc, start.semiSpace]).toEqual([0, 0]);
    }
  });

  it('warns of MALLOC_MMAP_THRESHOLD_ missing and counts it', async () => {
    for (const env of [
      { NODE_OPTIONS: SEMI_SPACE },
      { NODE_OPTIONS: SEMI_SPACE, MALLOC_MMAP_THRESHOLD_: '' },
    ]) {
      const start = await startWith({ env, execArgv: [] });
      expect(start.warnings).toHaveLength(1);
      expect(start.warnings[0]?.details).toEqual({
        setting: 'MALLOC_MMAP_THRESHOLD_',
        set: 'MALLOC_MMAP_THRESHOLD_=4194304',
      });
      expect(start.warnings[0]?.message).toContain('MALLOC_MMAP_THRESHOLD_ is not set');
      expect([start.malloc, start.semiSpace]).toEqual([1, 0]);
    }
  });

  it('warns of --max-semi-space-size missing and counts it', async () => {
    for (const settings of [
      { env: MALLOC, execArgv: [] },
      { env: { ...MALLOC, NODE_OPTIONS: '--max-old-space-size=512' }, execArgv: ['--expose-gc'] },
    ]) {
      const start = await startWith(settings);
      expect(start.warnings).toHaveLength(1);
      expect(start.warnings[0]?.details).toEqual({
        setting: '--max-semi-space-size',
        set: 'NODE_OPTIONS=--max-semi-space-size=2',
      });
      expect(start.warnings[0]?.message).toContain('set NODE_OPTIONS=--max-semi-space-size=2');
      expect([start.malloc, start.semiSpace]).toEqual([0, 1]);
    }
  });

  it('warns of both on a bare start, and the gauge passes promtool check metrics', async () => {
    const start = await startWith({ env: {}, execArgv: [] });
    expect(start.warnings.map((warning) => (warning.details as { setting: string }).setting)).toEqual([
      'MALLOC_MMAP_THRESHOLD_',
      '--max-semi-space-size',
    ]);
    expect([start.malloc, start.semiSpace]).toEqual([1, 1]);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: start.text, encoding: 'utf8' });
    if (check.error)
      throw new Error(`promtool is needed (apt-get install prometheus): ${check.error.message}`);
    expect(check.stderr.split('\n').filter(Boolean)).toEqual([]);
  });
});
