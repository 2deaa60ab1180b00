import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContractRecord } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { ContractPage } from './contract-page';
import { frameworkRow, orderRecord } from './test-fixtures';

const RECORD = `GET /backend/contracts/${orderRecord.id}`;
const NOTICE_RULE = `PUT /backend/contracts/${orderRecord.id}/notice-rule`;

/** The Rahmenvertrag's record, completed as an envelope, read by a leader (no notice rule by hand). */
const frameworkRecord: ContractRecord = {
  ...frameworkRow,
  noticeText: '4 Wochen zum Monatsende',
  noticeRule: { amount: 4, unit: 'weeks', endPoint: 'month' },
  lastNoticeDay: '2027-11-19',
  parties: [{ role: 'Kunde', name: 'Lahntal Software AG' }],
  noticeProblem: null,
  dateProblem: null,
  rates: { remote: null, onsite: null, hoursPerWeek: null },
  source: {
    kind: 'envelope',
    documentId: '55555555-5555-4555-8555-555555555555',
    documentVersion: 1,
    fileName: 'PL-10014 Rahmenvertrag.docx',
    envelopeId: 'env-1',
    signedBy: null,
  },
  negotiation: null,
  clauses: [],
  chain: [{ ...frameworkRow, relation: null, depth: 0 }],
  history: [{ at: '2026-11-20T11:00:00.000Z', type: 'created', actor: 'berater@demo.local', detail: null }],
  maySetNoticeRule: false,
};

function renderRecord(id = orderRecord.id) {
  return renderRoutes(
    [
      { path: '/vertraege/:contractId', Component: ContractPage },
      { path: '/vertraege', Component: () => <p>Liste</p> },
    ],
    `/vertraege/${id}`,
  );
}

const section = (name: string) => screen.getByRole('region', { name });

describe('ContractPage', () => {
  it('shows the record: parties, dates, the notice problem, where it was signed, its chain and history', async () => {
    stubApi({ [RECORD]: jsonResponse(200, orderRecord) });
    renderRecord();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Einzelauftrag PL-10028' });
    expect(heading.parentElement).toHaveTextContent('Einzelauftrag PL-10028Endet bald');

    const parties = section('Vertragsparteien');
    expect(parties).toHaveTextContent('Gesellschaft: WE Engineering GmbH');
    expect(parties).toHaveTextContent('Kunde: Lahntal Software AG');
    expect(parties).toHaveTextContent('BeraterFlorian Fuchs');
    // The customer is a party of this customer contract: named once, not again below.
    expect(parties.textContent?.match(/Kunde/g)).toHaveLength(1);
    const term = section('Laufzeit');
    expect(term).toHaveTextContent('Beginn01.04.2027');
    expect(term).toHaveTextContent('Ende30.09.2027');
    // Signed 23:30 UTC on 25 November: the 26th in Berlin.
    expect(term).toHaveTextContent('Unterschrieben am26.11.2026');
    // The customer's side: VK; a rate the document does not state is a dash, not „/“.
    const rates = section('Vergütung');
    expect(rates).toHaveTextContent('Stundensatz remote (VK)112,50 €');
    expect(rates).toHaveTextContent('Stundensatz vor Ort (VK)–');
    expect(rates).toHaveTextContent('Stunden pro Woche32');

    const notice = section('Kündigung');
    expect(notice).toHaveTextContent('Kündigungsfrist laut Vertrag2-3 Wochen');
    expect(notice).toHaveTextContent('RegelFrist nicht lesbar');
    expect(notice).toHaveTextContent('Kündigung spätestens amnicht berechenbar');
    expect(within(notice).getByRole('alert')).toHaveTextContent(
      'Die Kündigungsfrist „2-3 Wochen“ ist nicht lesbar: Sie nennt eine Spanne statt einer Frist.',
    );

    const source = section('Herkunft');
    expect(source).toHaveTextContent('Anderweitig unterschrieben von Ute Vogelsang');
    expect(within(source).queryByRole('link', { name: 'Umschlag öffnen' })).not.toBeInTheDocument();
    expect(within(source).getByRole('link', { name: 'Dokument öffnen' })).toHaveAttribute(
      'href',
      `/dokumente/${orderRecord.source.documentId}`,
    );
    // The rounds with the counterparty before signing, in the editor's negotiation panel.
    expect(
      within(source).getByRole('link', { name: 'Verhandlung: 2 Runden, vereinbart am 24.11.2026 10:30 Uhr' }),
    ).toHaveAttribute('href', `/dokumente/${orderRecord.source.documentId}#verhandlung`);
    // The clauses of the library it holds, an older version marked.
    const clauses = within(source).getByRole('list', { name: 'Klauseln' });
    expect(
      within(clauses)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Haftung: Version 1, Variante „Standard“ – ältere Version',
      'Schweizer Recht: Version 2, Variante „Schweiz“',
    ]);

    // The chain top-down, each level a list inside the entry above it.
    const chain = section('Vertragskette');
    const top = within(chain).getAllByRole('list')[0] as HTMLElement;
    const [framework] = within(top).getAllByRole('listitem');
    expect(within(framework as HTMLElement).getAllByRole('link')[0]).toHaveAccessibleName(
      'Rahmenvertrag PL-10014',
    );
    const order = within(chain).getByRole('link', { name: 'Einzelauftrag PL-10028' });
    expect(order).toHaveAttribute('aria-current', 'page');
    expect(order).toHaveAttribute('href', `/vertraege/${orderRecord.id}`);
    const orderItem = order.closest('li') as HTMLElement;
    expect(orderItem.parentElement?.closest('li')).toBe(framework);
    expect(orderItem).toHaveTextContent(/^unter dem Rahmenvertrag:/);
    const termination = within(chain).getByRole('link', { name: 'Kündigung PL-10028' });
    expect(termination).not.toHaveAttribute('aria-current');
    expect(termination.closest('li')?.parentElement?.closest('li')).toBe(orderItem);
    expect(termination.closest('li')).toHaveTextContent(/^beendet:/);
    expect(within(chain).getAllByRole('link', { name: /^Rahmenvertrag/ })[0]).not.toHaveAttribute(
      'aria-current',
    );

    const history = screen.getByRole('table', { name: 'Verlauf des Vertrags' });
    expect(within(history).getAllByRole('row')[1]).toHaveTextContent(
      '26.11.2026 00:30Als anderweitig unterschrieben erfasstlegal@demo.localUte Vogelsang',
    );
    expect(screen.getByRole('link', { name: /Zurück zu den Verträgen/ })).toHaveAttribute(
      'href',
      '/vertraege',
    );
  });

  it('describes a rule read from the text and links the envelope; only legal gets the form', async () => {
    stubApi({ [`GET /backend/contracts/${frameworkRecord.id}`]: jsonResponse(200, frameworkRecord) });
    renderRecord(frameworkRecord.id);
    const notice = await screen.findByRole('region', { name: 'Kündigung' });
    // A record whose document states no rates has no section for them.
    expect(screen.queryByRole('region', { name: 'Vergütung' })).not.toBeInTheDocument();
    expect(notice).toHaveTextContent('Regel4 Wochen zum Monatsende');
    expect(notice).toHaveTextContent('Herkunft der Regelaus dem Text der Kündigungsfrist gelesen');
    expect(notice).toHaveTextContent('Kündigung spätestens am19.11.2027');
    expect(within(notice).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(section('Herkunft')).getByRole('link', { name: 'Umschlag öffnen' })).toHaveAttribute(
      'href',
      '/signatur/env-1',
    );
    expect(section('Herkunft')).toHaveTextContent('Elektronisch unterschrieben');
    expect(
      screen.queryByRole('region', { name: 'Kündigungsfrist von Hand festlegen' }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Frist festlegen' })).not.toBeInTheDocument();
  });

  it('lets legal set the notice rule with a reason, and shows the record again', async () => {
    const fixed: ContractRecord = {
      ...orderRecord,
      noticeRule: { amount: 3, unit: 'months', endPoint: 'quarter' },
      noticeRuleSource: 'manual',
      noticeProblem: null,
      lastNoticeDay: '2027-06-30',
    };
    const api = stubApi({
      [RECORD]: [jsonResponse(200, orderRecord), jsonResponse(200, fixed)],
      [NOTICE_RULE]: jsonResponse(200, { ok: true }),
    });
    renderRecord();
    const form = await screen.findByRole('region', { name: 'Kündigungsfrist von Hand festlegen' });
    await userEvent.type(within(form).getByRole('textbox', { name: /^Anzahl/ }), '3');
    await userEvent.click(within(form).getByRole('combobox', { name: /^Einheit/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Monate' }));
    await userEvent.click(within(form).getByRole('combobox', { name: /^Zum/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Quartalsende' }));
    await userEvent.type(within(form).getByRole('textbox', { name: /^Grund/ }), 'Laut Vertrag § 9');
    await userEvent.click(within(form).getByRole('button', { name: 'Frist festlegen' }));

    expect(await within(form).findByText('Die Kündigungsfrist ist festgelegt.')).toBeInTheDocument();
    expect(api.callsTo(NOTICE_RULE).map((call) => call.body)).toEqual([
      { rule: { amount: 3, unit: 'months', endPoint: 'quarter' }, reason: 'Laut Vertrag § 9' },
    ]);
    await waitFor(() => expect(section('Kündigung')).toHaveTextContent('Regel3 Monate zum Quartalsende'));
    expect(section('Kündigung')).toHaveTextContent('Kündigung spätestens am30.06.2027');
    expect(section('Kündigung')).toHaveTextContent('von Legal von Hand festgelegt');
  });

  it('says what is missing before sending, and shows the server’s refusal at its field', async () => {
    const api = stubApi({
      [RECORD]: jsonResponse(200, orderRecord),
      [NOTICE_RULE]: jsonResponse(400, {
        error: 'invalid_input',
        message: 'Die Eingabe ist ungültig.',
        fields: { 'rule.amount': ['Diese Kündigungsfrist ist unplausibel lang (höchstens 52 Wochen).'] },
      }),
    });
    renderRecord();
    const form = await screen.findByRole('region', { name: 'Kündigungsfrist von Hand festlegen' });
    const amount = within(form).getByRole('textbox', { name: /^Anzahl/ });
    const reason = within(form).getByRole('textbox', { name: /^Grund/ });
    await userEvent.click(within(form).getByRole('button', { name: 'Frist festlegen' }));
    expect(
      await within(form).findByText('Bitte gib die Kündigungsfrist als ganze Zahl an.'),
    ).toBeInTheDocument();
    expect(within(form).getByText('Bitte gib einen Grund an (mindestens 3 Zeichen).')).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(NOTICE_RULE)).toHaveLength(0);

    await userEvent.type(amount, '8');
    await userEvent.type(reason, 'Laut Anlage 2');
    await userEvent.click(within(form).getByRole('button', { name: 'Frist festlegen' }));
    expect(
      await within(form).findByText('Diese Kündigungsfrist ist unplausibel lang (höchstens 52 Wochen).'),
    ).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(reason).not.toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(NOTICE_RULE).map((call) => call.body)).toEqual([
      { rule: { amount: 8, unit: 'weeks' }, reason: 'Laut Anlage 2' },
    ]);
  });

  it('says in German that a record is not there (or not the reader’s)', async () => {
    stubApi({
      [RECORD]: jsonResponse(404, { error: 'not_found', message: 'Diesen Vertrag gibt es nicht.' }),
    });
    renderRecord();
    expect(await screen.findByRole('heading', { name: 'Vertrag nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByText('Diesen Vertrag gibt es nicht.')).toBeInTheDocument();
  });
});
