import { CATALOGUE, type FormName } from '@vertragsgenerator/domain';
import type { SelectOption } from '@/components/fields';
import { texts } from '@/texts';

export type OptionParam =
  | 'language'
  | 'company'
  | 'contract'
  | 'partner'
  | 'document'
  | 'deadline'
  | 'agreement';
type OptionCode = keyof typeof texts.forms.options;

/**
 * The choices a form offers for one parameter: exactly the values some catalogue key of the form has
 * (docs/architecture.md#document-catalogue), optionally among the keys that match `where` (e.g. the partners
 * of company wp).
 */
export function catalogueOptions(
  form: FormName,
  param: OptionParam,
  where: Partial<Record<OptionParam, string | null>> = {},
): SelectOption[] {
  const values = new Set<string>();
  for (const entry of CATALOGUE.values()) {
    if (entry.form !== form) continue;
    const params = entry.params as Partial<Record<OptionParam, string>>;
    const fits = Object.entries(where).every(
      ([name, value]) => value == null || params[name as OptionParam] === value,
    );
    const value = params[param];
    if (fits && value !== undefined) values.add(value);
  }
  return [...values].map((value) => ({ value, label: texts.forms.options[value as OptionCode] ?? value }));
}

/** A partner the new company does not offer (k for wp) is cleared. */
export function partnerForCompany(
  form: FormName,
  company: string | null,
  partner: string | null,
): string | null {
  if (partner === null || company === null) return partner;
  return catalogueOptions(form, 'partner', { company }).some((option) => option.value === partner)
    ? partner
    : null;
}
