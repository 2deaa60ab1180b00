export { FormStatus } from './form-status';
export { useFirstInvalidFocus } from './use-first-invalid-focus';
export {
  type FieldRule,
  type FormValidation,
  type ServerFieldErrors,
  useFormValidation,
} from './use-form-validation';
