import { FORM_ROUTES } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEYS } from '@/lib/storage';
import { pageName, readHistory, recordVisit, trimTo, writeHistory } from './router-history';

describe('recordVisit', () => {
  it('appends a newly visited page', () => {
    expect(recordVisit([], '/start')).toEqual(['/start']);
    expect(recordVisit(['/start'], '/format')).toEqual(['/start', '/format']);
  });

  it('does not record a page twice but trims back to it', () => {
    expect(recordVisit(['/start', '/format'], '/format')).toEqual(['/start', '/format']);
    expect(recordVisit(['/start', '/format', FORM_ROUTES.offer], '/start')).toEqual(['/start']);
  });

  it('never records /login, /auth/callback or unknown paths', () => {
    const history = ['/start'];
    expect(recordVisit(history, '/login')).toEqual(['/start']);
    expect(recordVisit(history, '/auth/callback')).toEqual(['/start']);
    expect(recordVisit(history, '/gibt-es-nicht')).toEqual(['/start']);
  });

  it('does not change the given history', () => {
    const history = ['/start'];
    recordVisit(history, '/format');
    expect(history).toEqual(['/start']);
  });
});

describe('trimTo', () => {
  it('keeps the trail up to and including the page', () => {
    const history = ['/start', '/format', FORM_ROUTES.docusign];
    expect(trimTo(history, '/format')).toEqual(['/start', '/format']);
    expect(trimTo(history, '/start')).toEqual(['/start']);
  });

  it('leaves the trail alone for a page that is not in it', () => {
    expect(trimTo(['/start', '/format'], FORM_ROUTES.offer)).toEqual(['/start', '/format']);
  });
});

describe('session storage', () => {
  it('round-trips the trail under router-history', () => {
    writeHistory(['/start', '/format']);
    expect(JSON.parse(sessionStorage.getItem(SESSION_STORAGE_KEYS.routerHistory) ?? '')).toEqual([
      '/start',
      '/format',
    ]);
    expect(readHistory()).toEqual(['/start', '/format']);
  });

  it('ignores a damaged or foreign value', () => {
    sessionStorage.setItem(SESSION_STORAGE_KEYS.routerHistory, '{kaputt');
    expect(readHistory()).toEqual([]);
    sessionStorage.setItem(SESSION_STORAGE_KEYS.routerHistory, JSON.stringify(['/login', 7, '/start']));
    expect(readHistory()).toEqual(['/start']);
  });
});

describe('pageName', () => {
  it('names the pages as the breadcrumbs show them', () => {
    expect(pageName('/start')).toBe('ID-Input');
    expect(pageName('/format')).toBe('Format');
    expect(pageName(FORM_ROUTES.docusign)).toBe('DocuSign-Verträge');
    expect(pageName(FORM_ROUTES.docx)).toBe('DOCX-Kunde-Verträge');
    expect(pageName(FORM_ROUTES.termination)).toBe('Kündigungen');
    expect(pageName(FORM_ROUTES.offer)).toBe('Angebotserstellung');
    expect(pageName(FORM_ROUTES.agreement)).toBe('Zusatzvereinbarungen');
    expect(pageName('/login')).toBeUndefined();
  });
});
