'use client';
import { ENVIRONMENTS } from '@/lib/platform/storage-rules';
import { FormSection, FormSelect, FormTextField, optionsOf } from './fields';
import type { StorageFormController } from './use-storage-form';

/** Name, owning application and environment. */
export function BasicsSection({ form }: { form: StorageFormController }) {
  return (
    <FormSection title="Basics">
      <FormTextField
        form={form}
        field="name"
        label="Account name"
        placeholder="Leave empty to generate one"
        helper="3-24 lower-case letters and digits, unique across Azure. Leave empty and the platform generates one."
        // No maxLength: a longer name is shown and explained, never silently cut.
        slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
      />
      <FormTextField
        form={form}
        field="application"
        label="Application"
        required
        slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
        helper="The application this account belongs to, e.g. webshop. Recorded as a label."
      />
      <FormSelect
        form={form}
        field="environment"
        label="Environment"
        helper="Recorded as a label."
        options={optionsOf(ENVIRONMENTS)}
      />
    </FormSection>
  );
}
