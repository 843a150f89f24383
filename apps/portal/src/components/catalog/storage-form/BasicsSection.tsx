'use client';
import { ENVIRONMENTS } from '@/lib/platform/storage-rules';
import { FormSection, FormSelect, FormTextField, optionsOf } from './fields';
import type { StorageFormController } from './use-storage-form';
import { FIELD_LABELS } from '../storage-form-model';

/** Name, owning application and environment. */
export function BasicsSection({ form }: { form: StorageFormController }) {
  return (
    <FormSection title="Basics">
      <FormTextField
        form={form}
        field="name"
        label={FIELD_LABELS.name}
        placeholder="Leave empty to generate one"
        helper="3-24 lower-case letters and digits, unique across Azure. Leave empty and the platform generates one."
        // No maxLength: a longer name is shown and explained, never silently cut.
        slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
      />
      <FormTextField
        form={form}
        field="application"
        label={FIELD_LABELS.application}
        required
        slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
        helper="The application this account belongs to, e.g. webshop. Recorded as a label."
      />
      <FormSelect
        form={form}
        field="environment"
        label={FIELD_LABELS.environment}
        helper="Recorded as a label."
        options={optionsOf(ENVIRONMENTS)}
      />
    </FormSection>
  );
}
