export { EmailField } from './email-field';
export { NumberField } from './number-field';
export { NO_RECIPIENT, type Recipient, RecipientSelect } from './recipient-select';
export { RepeatedEmailField } from './repeated-email-field';
export { SelectField, type SelectOption } from './select-field';
export { TextField } from './text-field';
export * from './validation';
