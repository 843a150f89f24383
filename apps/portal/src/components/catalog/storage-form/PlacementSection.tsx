'use client';
import Alert from '@mui/material/Alert';
import { locationsFor, type Location } from '@/lib/platform/storage-rules';
import type { ResourceGroup } from '@/lib/platform/types';
import { FormSection, FormSelect } from './fields';
import type { StorageFormController } from './use-storage-form';
import { FIELD_LABELS } from '../storage-form-model';

/** Where the account lives: an approved resource group and an Azure region. */
export function PlacementSection({
  form,
  resourceGroups,
  locations,
}: {
  form: StorageFormController;
  resourceGroups: readonly ResourceGroup[];
  /** The locations platform policy allows. */
  locations: readonly Location[];
}) {
  const groupLocation = resourceGroups.find((group) => group.name === form.values.resourceGroup)?.location;
  const offered = locationsFor(groupLocation, locations);
  return (
    <FormSection title="Placement">
      {resourceGroups.length === 0 ? (
        <Alert severity="warning">No approved resource group is ready. Ask the platform team to provide one.</Alert>
      ) : null}
      <FormSelect
        form={form}
        field="resourceGroup"
        label={FIELD_LABELS.resourceGroup}
        helper="Approved resource groups that are ready."
        options={resourceGroups.map((group) => ({
          value: group.name,
          label: `${group.name}${group.location ? ` (${group.location})` : ''}${group.ready ? '' : ' — not ready'}`,
          disabled: !group.ready,
        }))}
      />
      <FormSelect
        form={form}
        field="location"
        label={FIELD_LABELS.location}
        helper="Azure region of the account. The resource group's own location comes first."
        options={offered.map((location) => ({
          value: location,
          label: location === groupLocation ? `${location} (the resource group's location)` : location,
        }))}
      />
    </FormSection>
  );
}
