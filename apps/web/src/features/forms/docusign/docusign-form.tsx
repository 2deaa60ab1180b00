import { Text } from '@mantine/core';
import {
  type Company,
  type ContractType,
  CUSTOMER_SIGNER_COUNTS,
  documentKeys,
  isLegal,
  type Language,
  type PartnerType,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import {
  areEmailEntriesValid,
  EMPTY_EMAIL_ENTRY,
  type EmailEntry,
  EmailField,
  isEmailEntryValid,
  NO_RECIPIENT,
  type Recipient,
  RecipientSelect,
  RepeatedEmailField,
  resizeEntries,
} from '@/components/fields';
import { useFormValidation } from '@/components/form';
import { SectionLoader } from '@/components/section-loader';
import { usePermission } from '@/lib/permission-api';
import { texts } from '@/texts';
import { CatalogueSelect, requiredSelectRules } from '../catalogue-select';
import { useCompanyAndPartner } from '../company-and-partner';
import { DocumentForm } from '../document-form';
import { FormPage } from '../form-page';

const labels = texts.forms.labels;
const MAX_CUSTOMER_SIGNERS = Math.max(...CUSTOMER_SIGNER_COUNTS);

/** DocuSign-Verträge: the contract sent for e-signature. */
export function DocusignFormPage() {
  const permission = usePermission();
  return (
    <FormPage form="docusign">
      {(match) =>
        permission.isPending ? (
          <SectionLoader />
        ) : (
          // An unknown or failed level counts as consultant (docs/architecture.md#permissions).
          <DocusignForm match={match} legal={isLegal(permission.data)} />
        )
      }
    </FormPage>
  );
}

export function DocusignForm({ match, legal }: { match: ResolvedMatch; legal: boolean }) {
  const [language, setLanguage] = useState<string | null>(null);
  const [contract, setContract] = useState<string | null>(null);
  // Consultants and leaders always contract with the project partner.
  const { company, setCompany, partner, setPartner } = useCompanyAndPartner('docusign', legal ? null : 'pp');
  const [signers, setSigners] = useState<EmailEntry[]>([EMPTY_EMAIL_ENTRY]);
  const [sender, setSender] = useState<Recipient>(NO_RECIPIENT);
  const [cc, setCc] = useState<Recipient>(NO_RECIPIENT);

  const validation = useFormValidation([
    // The partner is fixed for everybody but legal users: nothing for them to fill in.
    ...requiredSelectRules({ language, company, contract, ...(legal ? { partner } : {}) }),
    ...(partner === null
      ? []
      : [{ name: 'signers', required: true, valid: areEmailEntriesValid(signers, true) }]),
    { name: 'sender', required: true, valid: isEmailEntryValid(sender, true) },
    { name: 'cc', required: false, valid: isEmailEntryValid(cc, false) },
  ]);
  const { showErrors, serverError } = validation;

  function changePartner(next: string | null) {
    // The project partner signs alone; a customer gets a second signature block to fill in.
    if (next === 'pp') setSigners((old) => resizeEntries(old, 1));
    else if (next === 'k' && partner === 'pp') setSigners((old) => resizeEntries(old, MAX_CUSTOMER_SIGNERS));
    setPartner(next);
  }

  const docId =
    language && company && contract && partner
      ? documentKeys.docusign({
          language: language as Language,
          company: company as Company,
          partner: partner as PartnerType,
          contract: contract as ContractType,
          customerSigners: signers.length,
        })
      : null;

  function dataList() {
    const [first = EMPTY_EMAIL_ENTRY, second = EMPTY_EMAIL_ENTRY] = signers;
    const partnerSigner = partner === 'pp' ? first : EMPTY_EMAIL_ENTRY;
    const customer = partner === 'k' ? first : EMPTY_EMAIL_ENTRY;
    const customer2 = partner === 'k' && signers.length > 1 ? second : EMPTY_EMAIL_ENTRY;
    return {
      Absender_UserName: sender.name,
      Absender_Email: sender.email,
      Projektpartner_UserName: partnerSigner.name,
      Projektpartner_Email: partnerSigner.email,
      Kunde_UserName: customer.name,
      Kunde_Email: customer.email,
      Kunde2_UserName: customer2.name,
      Kunde2_Email: customer2.email,
      CC_UserName: cc.name,
      CC_Email: cc.email,
      vertragspartner_type: partner,
    };
  }

  return (
    <DocumentForm
      matchId={match.matchId}
      docId={docId}
      target="signature"
      validation={validation}
      dataList={dataList}
    >
      <CatalogueSelect
        form="docusign"
        param="language"
        value={language}
        onChange={setLanguage}
        showErrors={showErrors}
      />
      <CatalogueSelect
        form="docusign"
        param="company"
        value={company}
        onChange={setCompany}
        showErrors={showErrors}
      />
      <CatalogueSelect
        form="docusign"
        param="contract"
        value={contract}
        onChange={setContract}
        showErrors={showErrors}
      />
      {legal ? (
        <CatalogueSelect
          form="docusign"
          param="partner"
          where={{ company }}
          value={partner}
          onChange={changePartner}
          showErrors={showErrors}
          serverError={serverError('vertragspartner_type')}
        />
      ) : (
        <Text>{texts.forms.fixedPartner}</Text>
      )}
      {partner === 'pp' && (
        <EmailField
          label={labels.projectPartnerSigner}
          value={signers[0] ?? EMPTY_EMAIL_ENTRY}
          onChange={(entry) => setSigners([entry])}
          required
          showErrors={showErrors}
          serverError={serverError('Projektpartner_UserName', 'Projektpartner_Email')}
        />
      )}
      {partner === 'k' && (
        <RepeatedEmailField
          label={labels.customerSigner}
          countLabel={texts.fields.count(labels.customerSigners)}
          value={signers}
          onChange={setSigners}
          max={MAX_CUSTOMER_SIGNERS}
          required
          showErrors={showErrors}
          serverErrors={[
            serverError('Kunde_UserName', 'Kunde_Email'),
            serverError('Kunde2_UserName', 'Kunde2_Email'),
          ]}
        />
      )}
      <RecipientSelect
        label={labels.sender}
        value={sender}
        onChange={setSender}
        required
        showErrors={showErrors}
        serverError={serverError('Absender_UserName', 'Absender_Email')}
      />
      <RecipientSelect
        label={labels.cc}
        value={cc}
        onChange={setCc}
        showErrors={showErrors}
        serverError={serverError('CC_UserName', 'CC_Email')}
      />
    </DocumentForm>
  );
}
