import 'server-only';
import type { OwnedResource } from '@/lib/auth/permissions';
import type { StorageAccount } from '@/lib/platform/types';
import type { DesiredState } from './ledger';

/**
 * Whose account it is. The owner is the person the ledger recorded at create (or the admin who
 * adopted it): a change, resync or remediation by someone else, an admin's recreate included,
 * never makes that someone the owner, and the annotations on the cluster object (which kubectl may
 * strip or edit) never override it. Only an account the ledger has no owner for (one created before
 * the ledger) is judged by its requested-by annotations.
 */
export function ownerOf(state: DesiredState | undefined, account?: StorageAccount): OwnedResource {
  if (state?.owner) return { requestedBy: state.owner.display, requestedBySubject: state.owner.subject };
  if (!account) return {};
  return {
    ...(account.requestedBy === undefined ? {} : { requestedBy: account.requestedBy }),
    ...(account.requestedBySubject === undefined ? {} : { requestedBySubject: account.requestedBySubject }),
  };
}

/** The account as pages and the API show it: its owner is the ledger's when the ledger knows it. */
export function withLedgerOwner(account: StorageAccount, state: Readonly<DesiredState> | undefined): StorageAccount {
  if (!state?.owner) return account;
  return { ...account, requestedBy: state.owner.display, requestedBySubject: state.owner.subject };
}
