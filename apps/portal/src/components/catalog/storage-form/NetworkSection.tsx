'use client';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { FormSection, FormSwitch, FormTextField } from './fields';
import type { StorageFormController } from './use-storage-form';
import { FIELD_LABELS } from '../storage-form-model';

/** The security baseline the manifest always applies; shown so nobody looks for a switch. */
const ENFORCED = [
  'TLS 1.2 minimum',
  'No public containers',
  'Infrastructure encryption',
  'No cross-tenant replication',
];

/** Who can reach the account and how it authenticates. */
export function NetworkSection({ form }: { form: StorageFormController }) {
  return (
    <FormSection title="Network and security">
      <FormSwitch
        form={form}
        field="publicNetworkAccess"
        label={FIELD_LABELS.publicNetworkAccess}
        helper="Off: reachable only through private endpoints. On: reachable from the internet, limited to the ranges below if you list any."
      />
      <FormTextField
        form={form}
        field="allowedIpRanges"
        label={FIELD_LABELS.allowedIpRanges}
        multiline
        minRows={2}
        disabled={!form.values.publicNetworkAccess}
        placeholder="203.0.113.0/24, 198.51.100.7"
        helper="IPv4 addresses or CIDR ranges (/8 to /30), separated by commas or new lines."
      />
      <FormSwitch
        form={form}
        field="httpsOnly"
        label={FIELD_LABELS.httpsOnly}
        helper="Refuse unencrypted HTTP. Turn off only for NFSv3."
      />
      <FormSwitch
        form={form}
        field="sharedKeyAccess"
        label={FIELD_LABELS.sharedKeyAccess}
        helper="Allow account-key and SAS authorization besides Microsoft Entra ID."
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} aria-label="Enforced security settings" role="group">
        {ENFORCED.map((label) => (
          <Chip key={label} label={label} size="small" variant="outlined" color="success" />
        ))}
      </Box>
    </FormSection>
  );
}
