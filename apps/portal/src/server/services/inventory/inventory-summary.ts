import 'server-only';
import { countByClass, type Classification, type ClassificationCode } from '@/lib/platform/classification';
import { ACCOUNT_STATES, type AccountState, type StorageAccount } from '@/lib/platform/types';

/**
 * Counts for the overview and the applications page. Pure functions: the read model (read-model.ts)
 * keeps their answers for each version of the inventory, so a page view costs a lookup, not a pass
 * over every account.
 */

export type StateCounts = Record<AccountState, number>;

export interface InventoryCounts {
  total: number;
  byState: StateCounts;
  /** Items by class; an item without a classification is in none. */
  byClass: Record<ClassificationCode, number>;
}

export interface ApplicationSummary {
  /** Undefined for accounts not assigned to an application. */
  application?: string;
  environments: string[];
  total: number;
  byState: StateCounts;
  /** The first accounts by name, at most SHOWN_PER_APPLICATION; the inventory lists the rest. */
  accounts: Pick<StorageAccount, 'name' | 'state'>[];
}

const SHOWN_PER_APPLICATION = 5;

/**
 * The applications page's order: by name as people read it (locale order), plain code-unit order
 * between names that compare equal, and the accounts without an application last.
 */
export function compareApplications(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a.localeCompare(b) || (a < b ? -1 : 1);
}

const emptyCounts = (): StateCounts => Object.fromEntries(ACCOUNT_STATES.map((state) => [state, 0])) as StateCounts;

const hasClassification = (account: StorageAccount): account is StorageAccount & { classification: Classification } =>
  account.classification !== undefined;

export function inventoryCounts(accounts: readonly StorageAccount[]): InventoryCounts {
  const counts: InventoryCounts = {
    total: accounts.length,
    byState: emptyCounts(),
    byClass: countByClass(accounts.filter(hasClassification)),
  };
  for (const account of accounts) counts.byState[account.state] += 1;
  return counts;
}

/** One summary per application, in the applications page's order (by name; accounts without one last). */
export function applicationSummaries(accounts: readonly StorageAccount[]): ApplicationSummary[] {
  const byApplication = new Map<
    string | undefined,
    { environments: Set<string>; members: StorageAccount[]; summary: ApplicationSummary }
  >();
  for (const account of accounts) {
    let entry = byApplication.get(account.application);
    if (!entry) {
      entry = {
        environments: new Set(),
        members: [],
        summary: {
          ...(account.application ? { application: account.application } : {}),
          environments: [],
          total: 0,
          byState: emptyCounts(),
          accounts: [],
        },
      };
      byApplication.set(account.application, entry);
    }
    if (account.environment) entry.environments.add(account.environment);
    entry.summary.total += 1;
    entry.summary.byState[account.state] += 1;
    entry.members.push(account);
  }
  return [...byApplication.values()]
    .map(({ environments, members, summary }) => ({
      ...summary,
      environments: [...environments].sort(),
      accounts: members
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .slice(0, SHOWN_PER_APPLICATION)
        .map(({ name, state }) => ({ name, state })),
    }))
    .sort((a, b) => compareApplications(a.application, b.application));
}
