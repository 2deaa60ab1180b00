export { FormStatus } from './form-status';
export {
  type FieldRule,
  type FormValidation,
  type ServerFieldErrors,
  useFormValidation,
} from './use-form-validation';
