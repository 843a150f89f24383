import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ClassificationCode } from '@/lib/platform/classification';
import type { StorageAccount } from '@/lib/platform/types';
import { SyncSection } from './SyncSection';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: vi.fn() }) }));

function account(code: ClassificationCode): StorageAccount {
  return {
    name: 'stshop01',
    namespace: null,
    state: 'Ready',
    conditions: [],
    observed: {},
    desired: { minTlsVersion: 'TLS1_2' },
    reported: { minTlsVersion: 'TLS1_2' },
    sync: { inSync: true, reasons: [], differingFields: [], changedOutsidePortal: [] },
    classification: { code, fields: code === 'drifted' ? ['minTlsVersion'] : [] },
  };
}

describe('desired and observed state', () => {
  it('calls an account Crossplane reports in sync "In sync" when the portal agrees', () => {
    render(<SyncSection account={account('in_sync')} />);
    expect(screen.getByRole('status')).toHaveTextContent('In sync');
  });

  it.each([
    ['drifted', 'Azure holds other values than intent'],
    ['observation_unavailable', 'cannot read Azure'],
  ] as const)('never says "In sync" when the portal reads the account as %s', (code, why) => {
    render(<SyncSection account={account(code)} />);
    const verdict = screen.getByRole('status');
    expect(verdict).toHaveTextContent('Crossplane reports no problem');
    expect(verdict).toHaveTextContent(why);
    expect(screen.queryByText('In sync')).toBeNull();
  });
});
