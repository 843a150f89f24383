import 'server-only';
import type { Principal } from '@/lib/auth/permissions';
import { getCloudObserver, getNameChecker } from '../backends/azure/select-observer';
import { NameCheckFailedError } from '../backends/azure/name-availability';
import type { PlatformBackend } from '../model/backend';
import { ConflictError, InvalidRequestError, PlatformUnavailableError } from '../model/errors';
import type { CreateFacts } from '../model/ledger';
import { nameLife } from '../model/name-life';
import { getIntentLedger } from '../backends/ledger/select-ledger';

/**
 * A create never takes over an account. A storage account name is global across Azure, and
 * Crossplane takes over an existing Azure account of its Account's name, so a create of a name
 * that is someone else's would hand that account to the requester. A create is refused (409, and
 * nothing recorded, created or counted) when the name is another owner's in the ledger, when the
 * cluster already has it, when the last observation of Azure holds an account of that name that no
 * Account of this portal manages, or when Azure's name check says it is taken. Taking over an
 * existing account is the reviewed, admin-only `adopt`.
 *
 * When the portal talks to Azure (PORTAL_AZURE_SUBSCRIPTION_ID) and Azure cannot be asked, the
 * create fails closed: 503 with Retry-After, never a create on the chance that the name is free.
 */

/** After a failed name check, when to ask again unless Azure said. */
const NAME_CHECK_RETRY_SECONDS = 5;

/** The ledger's part, run again inside the ledger's append so that no other create slips in between. */
export function refuseAnotherOwnersName(
  name: string,
  principal: Principal,
): (facts: Pick<CreateFacts, 'life'>) => void {
  return ({ life }) => {
    if (!life.live || life.owner?.subject === principal.subject) return;
    throw new ConflictError(
      `The storage account name "${name}" belongs to ${life.owner ? `${life.owner.display}’s account` : 'an account'} in the portal; choose another name`,
    );
  };
}

/** Whether Azure holds an account of this name that no Account of the cluster manages (adopt's ground, never create's). */
async function unmanagedInAzure(name: string, managed: ReadonlySet<string>): Promise<boolean> {
  const snapshot = await getCloudObserver().snapshot();
  return snapshot.status === 'observed' && snapshot.accounts.has(name) && !managed.has(name);
}

/** Azure's own answer; the cached observation is only as fresh as its last read. */
async function takenInAzure(name: string, seenUnmanaged: boolean): Promise<void> {
  const checker = getNameChecker();
  if (!checker) {
    if (seenUnmanaged) throw unmanagedConflict(name);
    return;
  }
  let answer;
  try {
    answer = await checker.check(name);
  } catch (error) {
    if (!(error instanceof NameCheckFailedError)) throw error;
    // The last observation already says the name is an unmanaged account's: refuse for that.
    if (seenUnmanaged) throw unmanagedConflict(name);
    throw new PlatformUnavailableError(
      `Azure could not be asked whether the storage account name "${name}" is free (${error.reason}), so nothing was created. Try again in a moment.`,
      {
        cause: error,
        retryAfterSeconds: Math.max(1, Math.ceil((error.retryAfterMs ?? NAME_CHECK_RETRY_SECONDS * 1000) / 1000)),
      },
    );
  }
  if (answer.available) return;
  if (answer.reason === 'AccountNameInvalid') {
    throw new InvalidRequestError('The storage account request is invalid', {
      fields: { name: answer.message ?? `Azure does not accept "${name}" as a storage account name` },
    });
  }
  if (seenUnmanaged) throw unmanagedConflict(name);
  throw new ConflictError(
    `Azure reports the storage account name "${name}" as taken (names are global across all of Azure); choose another name`,
  );
}

const unmanagedConflict = (name: string) =>
  new ConflictError(
    `An Azure storage account named "${name}" exists that the portal does not manage, and a create never takes one over: choose another name. An admin can adopt it after review; an account of yours that lost its cluster object is recreated from its page.`,
  );

/**
 * Every check that needs no lock: the ledger as it stands, the cluster, the last observation of
 * Azure and Azure's name check. The ledger's check runs again when the create is recorded.
 * @throws ConflictError (409), InvalidRequestError (400), PlatformUnavailableError (503: Azure could not be asked)
 */
export async function claimNewName(name: string, principal: Principal, backend: PlatformBackend): Promise<void> {
  refuseAnotherOwnersName(name, principal)({ life: nameLife(await getIntentLedger().history(name)) });
  // Development mode has no cluster or Azure to ask: it answers as the specification says.
  if (backend.mode === 'mock') return;
  const accounts = await backend.list();
  if (accounts.some((account) => account.name === name)) {
    throw new ConflictError(`A storage account named "${name}" already exists`);
  }
  const managed = new Set(accounts.map((account) => (account.externalName ?? account.name).toLowerCase()));
  // An observed, unmanaged account refuses the name unless Azure now says it is free (it was deleted since).
  await takenInAzure(name, await unmanagedInAzure(name, managed));
}
