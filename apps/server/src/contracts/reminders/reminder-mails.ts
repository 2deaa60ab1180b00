import {
  CONTRACT_KIND_LABELS,
  CONTRACT_REMINDER_COMPANY_LABELS,
  type Company,
  type ContractKind,
  formatCalendarDate,
} from '@vertragsgenerator/domain';
import type { OutgoingMail } from '../../mail/mail-outbox.js';
import { calendarDateOfIso } from '../contract-terms.js';

/** Which deadline a reminder is about: the last day to give notice, or the contract's end. */
export type DeadlineKind = 'notice' | 'end';

/** What a reminder mail says of its contract. */
export interface RecordForMail {
  id: string;
  match_id: string;
  kind: ContractKind;
  company: string;
  partner_type: string;
  counterparty: string;
  customer: string;
  consultant: string;
  end_date: string | null;
  last_notice_day: string | null;
  notice_text: string | null;
}

export const germanDay = (iso: string) => formatCalendarDate(calendarDateOfIso(iso));

const inDays = (days: number) => (days === 0 ? 'heute' : days === 1 ? 'morgen' : `in ${days} Tagen`);

export const DEADLINE_TITLES: Record<DeadlineKind, string> = {
  notice: 'Kündigungsfrist',
  end: 'Vertragsende',
};

/** The contract's lines, as the mail and the calendar event name it. */
export function contractLines(record: RecordForMail): string[] {
  const company = CONTRACT_REMINDER_COMPANY_LABELS[record.company as Company] ?? record.company;
  const partner = record.partner_type === 'pp' ? 'Projektpartner' : 'Kunde';
  return [
    `Match: ${record.match_id}`,
    `Vertrag: ${CONTRACT_KIND_LABELS[record.kind]} (${company}, ${partner})`,
    `Vertragspartner: ${record.counterparty}`,
    ...(record.customer && record.customer !== record.counterparty ? [`Kunde: ${record.customer}`] : []),
    `Berater:in: ${record.consultant || '/'}`,
    `Vertragsende: ${record.end_date ? germanDay(record.end_date) : 'unbefristet'}`,
    ...(record.notice_text ? [`Kündigungsfrist laut Vertrag: ${record.notice_text}`] : []),
  ];
}

/**
 * The reminder of a deadline coming near, to one recipient (the deal's consultant or a member of legal
 * staff), in German: the match, the counterparty, the day, what to do, and the link to the record.
 */
export function deadlineReminderMail(
  record: RecordForMail,
  deadline: { kind: DeadlineKind; day: string; daysLeft: number },
  to: string,
  publicUrl: string,
): OutgoingMail {
  const day = germanDay(deadline.day);
  const what =
    deadline.kind === 'notice'
      ? [
          `die Kündigungsfrist dieses Vertrags läuft ab: der letzte Tag, um zu kündigen, ist der ${day} (${inDays(deadline.daysLeft)}).`,
          '',
          'Was zu tun ist: Kläre bis dahin mit dem Vertragspartner, ob der Vertrag weiterlaufen soll. Soll er enden, erstelle die Kündigung und sorge dafür, dass sie spätestens an diesem Tag zugeht; soll er weiterlaufen, erstelle die Verlängerung. Sobald eine Kündigung oder Verlängerung unterschrieben ist, kommen zu diesem Vertrag keine Erinnerungen mehr.',
        ]
      : [
          `dieser Vertrag endet am ${day} (${inDays(deadline.daysLeft)}).`,
          '',
          'Was zu tun ist: Soll der Einsatz weiterlaufen, erstelle rechtzeitig die Verlängerung und lass sie unterschreiben. Soll er enden, ist nichts weiter zu tun; sprich gegebenenfalls das Ende mit dem Vertragspartner ab.',
        ];
  return {
    to,
    subject: `${DEADLINE_TITLES[deadline.kind]} am ${day}: ${record.match_id} ${record.counterparty}`,
    text: [
      'Hallo,',
      '',
      ...what,
      '',
      ...contractLines(record),
      '',
      `Zum Vertrag: ${publicUrl}/vertraege/${record.id}`,
    ].join('\n'),
    reference: `contract:${record.id}:${deadline.kind}:${deadline.day}`,
  };
}
