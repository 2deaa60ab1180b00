import type { FormName } from '@vertragsgenerator/domain';
import { catalogueOptions, type OptionParam } from '@/components/catalogue-options';
import { isSelectValid, SelectField } from '@/components/fields';
import type { FieldRule } from '@/components/form';
import { texts } from '@/texts';

export interface CatalogueSelectProps {
  form: FormName;
  /** The catalogue parameter chosen here; it also names the field's label. */
  param: OptionParam;
  /** Narrows the choices to the catalogue keys that match (see `catalogueOptions`). */
  where?: Partial<Record<OptionParam, string | null>>;
  value: string | null;
  onChange: (value: string | null) => void;
  showErrors: boolean;
  serverError?: string;
}

/** A required choice among the values the form's catalogue offers for one parameter. */
export function CatalogueSelect({ form, param, where, ...props }: CatalogueSelectProps) {
  return (
    <SelectField
      label={texts.forms.labels[param]}
      options={catalogueOptions(form, param, where)}
      required
      {...props}
    />
  );
}

/** The validation rules of required selects, one per named value. */
export function requiredSelectRules(values: Record<string, string | null>): FieldRule[] {
  return Object.entries(values).map(([name, value]) => ({
    name,
    required: true,
    valid: isSelectValid(value, true),
  }));
}
