import type { CatalogueEntry, DocumentParams } from './catalogue.js';

/** What a document of these parameters is called: in file names, in the batches' titles. */
export function documentName(params: DocumentParams): string {
  switch (params.family) {
    case 'contract':
      return `${params.contract === 'rv' ? 'Rahmenvertrag' : 'Einzelauftrag'}${params.language === 'en' ? ' (englisch)' : ''}`;
    case 'termination':
      if (params.document === 'confirmation') return 'Kündigungsbestätigung';
      return params.deadline === 'los' ? 'Fristlose Kündigung' : 'Kündigung';
    case 'offer':
      return 'Angebot';
    case 'agreement':
      if (params.agreement === 'extension')
        return `Verlängerung${params.language === 'en' ? ' (englisch)' : ''}`;
      return {
        descr: 'Zusatzvereinbarung Aufgaben',
        hours: 'Zusatzvereinbarung Stunden',
        misc: 'Zusatzvereinbarung',
      }[params.agreement];
  }
}

/** A key as a person names it: „Verlängerung – Kunde, WM“. */
export function documentTitle(entry: CatalogueEntry): string {
  const { params } = entry;
  return `${documentName(params)} – ${params.partner === 'k' ? 'Kunde' : 'Projektpartner'}, ${params.company.toUpperCase()}`;
}
