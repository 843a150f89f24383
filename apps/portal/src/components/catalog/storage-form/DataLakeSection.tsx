'use client';
import { supportsHierarchicalNamespace } from '@/lib/platform/storage-rules';
import { FormSection, FormSwitch } from './fields';
import type { StorageFormController } from './use-storage-form';

/** Hierarchical namespace and the protocols that need it. */
export function DataLakeSection({ form }: { form: StorageFormController }) {
  const { accountKind, accountTier, hierarchicalNamespace } = form.values;
  const hnsAllowed = supportsHierarchicalNamespace(accountKind, accountTier);
  return (
    <FormSection title="Data Lake and protocols">
      <FormSwitch
        form={form}
        field="hierarchicalNamespace"
        label="Hierarchical namespace (Data Lake Storage)"
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
        label="SFTP"
        helper="Requires hierarchical namespace."
        disabled={!hierarchicalNamespace}
      />
      <FormSwitch
        form={form}
        field="nfsv3Enabled"
        label="NFSv3"
        helper="Requires hierarchical namespace; turns HTTPS only off."
        disabled={!hierarchicalNamespace}
      />
    </FormSection>
  );
}
