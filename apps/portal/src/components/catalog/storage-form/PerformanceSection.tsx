'use client';
import {
  ACCESS_TIERS,
  ACCOUNT_KINDS,
  ACCOUNT_TIERS,
  accessTierApplies,
  REPLICATION_TYPES,
  replicationAllowed,
  tierLocked,
} from '@/lib/platform/storage-rules';
import { FormSection, FormSelect, optionsOf } from './fields';
import type { StorageFormController } from './use-storage-form';
import { FIELD_LABELS } from '../storage-form-model';

/** Kind, tier, replication and access tier: the choices Azure's rules couple most tightly. */
export function PerformanceSection({ form }: { form: StorageFormController }) {
  const { accountKind, accountTier } = form.values;
  const premiumOnly = tierLocked(accountKind);
  const takesAccessTier = accessTierApplies(accountKind);
  return (
    <FormSection title="Performance and redundancy">
      <FormSelect
        form={form}
        field="accountKind"
        label={FIELD_LABELS.accountKind}
        helper="StorageV2 suits almost everything."
        options={optionsOf(ACCOUNT_KINDS)}
      />
      <FormSelect
        form={form}
        field="accountTier"
        label={FIELD_LABELS.accountTier}
        helper={
          premiumOnly
            ? `${accountKind} accounts exist only on the Premium tier.`
            : 'Premium uses SSDs and supports LRS or ZRS only.'
        }
        options={optionsOf(ACCOUNT_TIERS)}
        disabled={premiumOnly}
      />
      <FormSelect
        form={form}
        field="replicationType"
        label={FIELD_LABELS.replicationType}
        helper={
          accountTier === 'Premium'
            ? 'Premium accounts cannot replicate to another region.'
            : 'GRS and GZRS copy data to the paired region.'
        }
        options={REPLICATION_TYPES.map((replication) => ({
          value: replication,
          disabled: !replicationAllowed(accountTier, replication),
        }))}
      />
      <FormSelect
        form={form}
        field="accessTier"
        label={FIELD_LABELS.accessTier}
        helper={
          takesAccessTier
            ? 'Hot for frequent access, Cool for infrequent.'
            : `${accountKind} accounts take no access tier.`
        }
        options={[{ value: '', label: 'None', disabled: true }, ...optionsOf(ACCESS_TIERS)]}
        disabled={!takesAccessTier}
      />
    </FormSection>
  );
}
