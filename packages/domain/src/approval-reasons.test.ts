import { describe, expect, it } from 'vitest';
import { approvalReasons, approvalReasonText, dealMargin, type MarginSource } from './approval-reasons.js';
import { type ApprovalRules, DEFAULT_APPROVAL_RULES } from './approval-rules.js';

const rules = (change: Partial<ApprovalRules> = {}): ApprovalRules => ({
  ...DEFAULT_APPROVAL_RULES,
  ...change,
});

describe('dealMargin', () => {
  it('computes (VK − EK) ÷ VK for remote and onsite', () => {
    expect(dealMargin({ vk: 100, ek: 85 }, 'remote')).toEqual({ status: 'ok', percent: 15, vk: 100, ek: 85 });
    expect(dealMargin({ vk2: '1.000,00 €', ek2: '876' }, 'onsite')).toMatchObject({
      status: 'ok',
      percent: 12.4,
    });
  });

  it('uses the fallbacks of match.ts (tagessatzRemote, tagessatzEk, …)', () => {
    expect(dealMargin({ tagessatzRemote: 800, tagessatzEk: 700 }, 'remote')).toMatchObject({ percent: 12.5 });
    expect(dealMargin({ vk: ' ', tagessatzRemote: 800, ek: 600 }, 'remote')).toMatchObject({ percent: 25 });
    expect(dealMargin({ tagessatzOnsite: 1000, tagessatzEk2: 900 }, 'onsite')).toMatchObject({ percent: 10 });
  });

  it('treats a missing or unreadable rate as missing, and a VK of 0 as invalid', () => {
    expect(dealMargin({ vk: 100 }, 'remote')).toEqual({ status: 'missing' });
    expect(dealMargin({ vk: 'n/a', ek: 80 }, 'remote')).toEqual({ status: 'missing' });
    expect(dealMargin({ ek2: 80 }, 'onsite')).toEqual({ status: 'missing' });
    expect(dealMargin({}, 'onsite')).toEqual({ status: 'none' });
    expect(dealMargin({ vk: 0, ek: 10 }, 'remote')).toEqual({ status: 'invalid' });
  });
});

describe('approvalReasons', () => {
  const healthy = { vk: 100, ek: 80, vk2: 120, ek2: 90 };

  it('needs nothing for a healthy deal with the default rules', () => {
    expect(approvalReasons(rules(), { match: healthy, docKey: 'de-wm-pp-rv', editedText: false })).toEqual(
      [],
    );
  });

  it('names a thin margin with the company of the document key', () => {
    const reasons = approvalReasons(rules(), {
      match: { ...healthy, vk: 1000, ek: 876 },
      docKey: 'de-we-pp-ev',
      editedText: false,
    });
    expect(reasons).toEqual([
      { kind: 'margin', channel: 'remote', company: 'we', threshold: 15, percent: 12.4, problem: null },
    ]);
    expect(reasons.map(approvalReasonText)).toEqual(['Marge remote 12,4 % liegt unter 15 % (WE)']);
  });

  it('takes a missing rate as a reason, not as a pass', () => {
    const reasons = approvalReasons(rules(), {
      match: { vk: 100, ek: 80, vk2: 120 },
      docKey: 'de-wm-pp-rv',
      editedText: false,
    });
    expect(reasons.map(approvalReasonText)).toEqual(['Marge onsite fehlt (VK oder EK nicht angegeben)']);
    const withoutAnyRate = approvalReasons(rules(), { match: {}, docKey: 'de-wm-pp-rv', editedText: false });
    expect(withoutAnyRate.map(approvalReasonText)).toEqual([
      'Marge remote fehlt (VK oder EK nicht angegeben)',
    ]);
  });

  it('leaves out a channel the deal has no rates for: a remote-only deal needs no onsite margin', () => {
    expect(
      approvalReasons(rules(), { match: { vk: 100, ek: 80 }, docKey: 'de-wm-pp-rv', editedText: false }),
    ).toEqual([]);
  });

  it('uses the threshold per company and ignores the margin when switched off', () => {
    const strictWp = rules({ margin: { enabled: true, thresholds: { wm: 15, we: 15, wp: 25 } } });
    expect(
      approvalReasons(strictWp, { match: healthy, docKey: 'de-wp-pp-rv', editedText: false }),
    ).toHaveLength(1);
    expect(approvalReasons(strictWp, { match: healthy, docKey: 'de-wm-pp-rv', editedText: false })).toEqual(
      [],
    );
    const off = rules({ margin: { enabled: false, thresholds: { wm: 15, we: 15, wp: 15 } } });
    expect(approvalReasons(off, { match: {}, docKey: 'de-wm-pp-rv', editedText: false })).toEqual([]);
  });

  it('names an edited text only while the rule is on', () => {
    const subject = { match: healthy, docKey: 'de-wm-pp-rv', editedText: true };
    expect(approvalReasons(rules(), subject).map(approvalReasonText)).toEqual([
      'Text nach der Erstellung geändert',
    ]);
    expect(approvalReasons(rules({ editedText: false }), subject)).toEqual([]);
  });

  it('holds no termination back for its margin: a thin or rateless deal still gets its termination', () => {
    const thin = { vk: 100, ek: 95 };
    const termination = (match: MarginSource) => ({
      match,
      docKey: 'kuendigung-wm-pp-termination-gerecht',
      editedText: false,
    });
    expect(approvalReasons(rules(), termination(thin))).toEqual([]);
    expect(approvalReasons(rules(), termination({}))).toEqual([]);
    // The same deal's offer is held back.
    expect(approvalReasons(rules(), { match: thin, docKey: 'angebot-wm', editedText: false })).toHaveLength(
      1,
    );
  });

  it('names a document type by family or by key', () => {
    const byFamily = rules({ documentTypes: ['termination'] });
    const termination = { match: healthy, docKey: 'kuendigung-wm-pp-termination-gerecht', editedText: false };
    expect(approvalReasons(byFamily, termination).map(approvalReasonText)).toEqual([
      'Dokumenttyp Kündigung braucht immer eine Freigabe',
    ]);
    const byKey = rules({ documentTypes: ['angebot-wm'] });
    expect(approvalReasons(byKey, { match: healthy, docKey: 'angebot-wm', editedText: false })).toEqual([
      { kind: 'document_type', documentType: 'angebot-wm' },
    ]);
    expect(approvalReasons(byKey, { match: healthy, docKey: 'angebot-we', editedText: false })).toEqual([]);
  });
});

describe('approvalReasonText', () => {
  it('never rounds a margin up to the threshold', () => {
    expect(
      approvalReasonText({
        kind: 'margin',
        channel: 'remote',
        company: 'wm',
        threshold: 15,
        percent: 14.999,
        problem: null,
      }),
    ).toBe('Marge remote 14,99 % liegt unter 15 % (WM)');
    expect(
      approvalReasonText({
        kind: 'margin',
        channel: 'onsite',
        company: 'wp',
        threshold: 12.5,
        percent: -3.5,
        problem: null,
      }),
    ).toBe('Marge onsite -3,5 % liegt unter 12,5 % (WP)');
  });
});
