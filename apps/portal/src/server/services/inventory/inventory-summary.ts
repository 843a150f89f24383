import 'server-only';
import { countByClass, type Classification, type ClassificationCode } from '@/lib/platform/classification';
import { ACCOUNT_STATES, type AccountState, type StorageAccount } from '@/lib/platform/types';
import { processWide } from '../../runtime/process-wide';

/**
 * Counts for the overview and the applications page, computed once per list the backend hands out
 * (the same array until something changes), so a page view costs a lookup, not a pass over every account.
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

// Per process, not per bundle (see process-wide.ts): the pages and the API share them.
const counted = processWide(
  'inventory-summary.counts',
  () => new WeakMap<readonly StorageAccount[], InventoryCounts>(),
);
const summarised = processWide(
  'inventory-summary.applications',
  () => new WeakMap<readonly StorageAccount[], ApplicationSummary[]>(),
);

export function inventoryCounts(accounts: readonly StorageAccount[]): InventoryCounts {
  let counts = counted.get(accounts);
  if (!counts) {
    counts = {
      total: accounts.length,
      byState: emptyCounts(),
      byClass: countByClass(accounts.filter(hasClassification)),
    };
    for (const account of accounts) counts.byState[account.state] += 1;
    counted.set(accounts, counts);
  }
  return counts;
}

/** One summary per application, in the applications page's order (by name; accounts without one last). */
export function applicationSummaries(accounts: readonly StorageAccount[]): ApplicationSummary[] {
  let summaries = summarised.get(accounts);
  if (!summaries) {
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
    summaries = [...byApplication.values()]
      .map(({ environments, members, summary }) => ({
        ...summary,
        environments: [...environments].sort(),
        accounts: members
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .slice(0, SHOWN_PER_APPLICATION)
          .map(({ name, state }) => ({ name, state })),
      }))
      .sort((a, b) => compareApplications(a.application, b.application));
    summarised.set(accounts, summaries);
  }
  return summaries;
}
