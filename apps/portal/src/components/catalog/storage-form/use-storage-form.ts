'use client';
import { useMemo, useState } from 'react';
import type { FieldErrors } from '@/lib/platform/storage-request';
import {
  applyChange,
  checkForm,
  initialFormValues,
  type FormCheck,
  type FormChoices,
  type StorageFormField,
  type StorageFormValues,
} from '../storage-form-model';

/** What every section of the form needs: the values, a way to change them, and the error to show per field. */
export interface StorageFormController {
  values: StorageFormValues;
  check: FormCheck;
  /** The problem to show beside a field now (once it was left or a step was attempted). */
  errorFor: (field: StorageFormField) => string | undefined;
  /** The field's problem whether or not it is shown yet. */
  problemOf: (field: StorageFormField) => string | undefined;
  change<F extends StorageFormField>(field: F, value: StorageFormValues[F]): void;
  touch(field: StorageFormField): void;
  /** After a submit attempt every field shows its problem, touched or not. */
  markAttempted(): void;
  setServerErrors(errors: FieldErrors): void;
}

/**
 * The form's state. A field's problem shows once the person has left it or tried to submit;
 * a server error shows until that field changes.
 */
export function useStorageForm(choices: FormChoices, onChange?: () => void): StorageFormController {
  const [values, setValues] = useState<StorageFormValues>(() => initialFormValues(choices));
  const [touched, setTouched] = useState<ReadonlySet<StorageFormField>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const check = useMemo(() => checkForm(values), [values]);

  const problemOf = (field: StorageFormField) => serverErrors[field] ?? (check.valid ? undefined : check.fields[field]);

  return {
    values,
    check,
    problemOf,
    errorFor(field) {
      const server = serverErrors[field];
      if (server) return server;
      if (check.valid || !(attempted || touched.has(field))) return undefined;
      return check.fields[field];
    },
    change(field, value) {
      setValues((current) => applyChange(current, field, value, choices));
      setServerErrors(({ [field]: _dropped, ...rest }) => rest);
      onChange?.();
    },
    touch(field) {
      setTouched((current) => new Set(current).add(field));
    },
    markAttempted() {
      setAttempted(true);
    },
    setServerErrors,
  };
}
