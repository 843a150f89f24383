import Chip from '@mui/material/Chip';
import type { AccountState } from '@/lib/platform/types';

const COLORS: Record<AccountState, 'success' | 'info' | 'warning' | 'error' | 'default'> = {
  Ready: 'success',
  Provisioning: 'info',
  Deleting: 'warning',
  Failed: 'error',
  Unknown: 'default',
};

export function StateChip({ state, title }: { state: AccountState; title?: string }) {
  return <Chip size="small" label={state} color={COLORS[state]} variant="outlined" title={title} />;
}
