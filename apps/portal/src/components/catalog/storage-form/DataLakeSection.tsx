'use client';
import { supportsHierarchicalNamespace } from '@/lib/platform/storage-rules';
import { FormSection, FormSwitch } from './fields';
import type { StorageFormController } from './use-storage-form';
import { FIELD_LABELS } from '../storage-form-model';

/** Hierarchical namespace and the protocols that need it. */
export function DataLakeSection({ form }: { form: StorageFormController }) {
  const { accountKind, accountTier, hierarchicalNamespace } = form.values;
  const hnsAllowed = supportsHierarchicalNamespace(accountKind, accountTier);
  return (
    <FormSection title="Data Lake and protocols">
      <FormSwitch
        form={form}
        field="hierarchicalNamespace"
        label={`${FIELD_LABELS.hierarchicalNamespace} (Data Lake Storage)`}
        helper={
          hnsAllowed
            ? 'Directories and POSIX permissions; needed for SFTP and NFSv3.'
            : 'Needs a Standard StorageV2 or a Premium BlockBlobStorage account.'
        }
        disabled={!hnsAllowed}
      />
      <FormSwitch
        form={form}
        field="sftpEnabled"
        label={FIELD_LABELS.sftpEnabled}
        helper="Requires hierarchical namespace."
        disabled={!hierarchicalNamespace}
      />
      <FormSwitch
        form={form}
        field="nfsv3Enabled"
        label={FIELD_LABELS.nfsv3Enabled}
        helper="Requires hierarchical namespace; turns HTTPS only off."
        disabled={!hierarchicalNamespace}
      />
    </FormSection>
  );
}
