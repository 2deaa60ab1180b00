import type { FormName } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { partnerForCompany } from '@/components/catalogue-options';

/**
 * A form's company and partner type, kept consistent in one place: choosing a company that does not
 * offer the chosen partner type clears it (wp has no customer contracts).
 */
export function useCompanyAndPartner(form: FormName, initialPartner: string | null = null) {
  const [company, setCompanyValue] = useState<string | null>(null);
  const [partner, setPartner] = useState<string | null>(initialPartner);
  function setCompany(next: string | null) {
    setCompanyValue(next);
    setPartner((current) => partnerForCompany(form, next, current));
  }
  return { company, setCompany, partner, setPartner };
}
