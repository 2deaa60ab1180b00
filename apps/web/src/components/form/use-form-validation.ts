import { useState } from 'react';

/** One field as the form-level check sees it: the field's own rule decided `valid`. */
export interface FieldRule {
  name: string;
  required: boolean;
  valid: boolean;
}

export type ServerFieldErrors = Readonly<Record<string, readonly string[]>>;

/**
 * The form-level validation model (docs/architecture.md#screens): nothing is marked until the first submit
 * attempt, then every invalid field is; the counter counts the required fields already valid. Fields the
 * server refused (a 400's `fields`) are marked with its words until the next attempt.
 */
export function useFormValidation(rules: readonly FieldRule[]) {
  const [showErrors, setShowErrors] = useState(false);
  const [serverFields, setServerFields] = useState<ServerFieldErrors>({});
  const required = rules.filter((rule) => rule.required);
  const allValid = rules.every((rule) => rule.valid);

  return {
    showErrors,
    filled: required.filter((rule) => rule.valid).length,
    total: required.length,
    /** The red message that names the marked fields is due. */
    incomplete: showErrors && !allValid,
    /** Marks the invalid fields from now on; true when the form may be sent. */
    attemptSubmit(): boolean {
      setShowErrors(true);
      setServerFields({});
      return allValid;
    },
    setServerFields,
    /** The server's words about the given dataList fields, if it refused any of them. */
    serverError(...fields: string[]): string | undefined {
      const messages = fields.flatMap((field) => serverFields[field] ?? []);
      return messages.length > 0 ? messages.join(' ') : undefined;
    },
  };
}

export type FormValidation = ReturnType<typeof useFormValidation>;
