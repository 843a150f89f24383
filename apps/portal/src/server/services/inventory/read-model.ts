import 'server-only';
import type { Classification } from '@/lib/platform/classification';
import type { StorageAccount } from '@/lib/platform/types';
import { processWide } from '../../runtime/process-wide';
import { SharedValues } from '../../runtime/shared-values';
import {
  filterKeyOf,
  matchingIn,
  pageOfMatches,
  searchTextOf,
  sortedBy,
  type InventoryPage,
  type InventoryQuery,
  type KeyedAccount,
} from './inventory-query';
import {
  applicationSummaries,
  inventoryCounts,
  type ApplicationSummary,
  type InventoryCounts,
} from './inventory-summary';

/**
 * The inventory's read model: one version of the classified inventory and everything the pages and
 * the API derive from it (sort orders, search texts, filter matches, counts, application summaries),
 * each computed on first use and dropped together when the inputs change. The cluster cache, the
 * ledger and the cloud observer hand out the same objects until something changes, so an unchanged
 * inventory is classified, sorted and counted once rather than per view. One per process, not per
 * bundle (see process-wide.ts): the pages and the API share it.
 */

// Paging through a filter asks for the same matches again and again, so the latest filters are kept;
// a bounded number of them, since q is whatever a client sends.
const FILTERS_KEPT = 64;

/** One version of the inventory, and what is derived from it. */
export class InventoryReadModel {
  private classified?: readonly StorageAccount[];
  private readonly orders = new Map<string, readonly KeyedAccount[]>();
  private readonly matches = new Map<string, readonly KeyedAccount[]>();
  private readonly searchTexts = new Map<StorageAccount, string>();
  private counted?: InventoryCounts;
  private summaries?: ApplicationSummary[];

  /** `classify` makes the items, in name order; it runs on first use. */
  constructor(private readonly classify: () => readonly StorageAccount[]) {}

  /** Every item, classified; frozen, and the same array for as long as this version lasts. */
  get items(): readonly StorageAccount[] {
    this.classified ??= Object.freeze(this.classify());
    return this.classified;
  }

  /** The items in a sort order (one of SORT_ORDERS). */
  ordered(sort: string): readonly KeyedAccount[] {
    let order = this.orders.get(sort);
    if (!order) {
      order = sortedBy(this.items, sort);
      this.orders.set(sort, order);
    }
    return order;
  }

  /** The items matching the query's q, state, class and namespace, in its sort order. */
  matching(query: InventoryQuery): readonly KeyedAccount[] {
    const all = this.ordered(query.sort);
    const key = filterKeyOf(query);
    if (key === undefined) return all;
    let found = this.matches.get(key);
    if (!found) {
      found = matchingIn(all, query, (account) => this.searchTextOf(account));
      if (this.matches.size >= FILTERS_KEPT) this.matches.delete(this.matches.keys().next().value as string);
      this.matches.set(key, found);
    }
    return found;
  }

  /** The page of matches the query's cursor and limit ask for. */
  page(query: InventoryQuery): InventoryPage {
    return pageOfMatches(this.matching(query), query);
  }

  counts(): InventoryCounts {
    this.counted ??= inventoryCounts(this.items);
    return this.counted;
  }

  /** One summary per application, in the applications page's order. */
  applications(): readonly ApplicationSummary[] {
    this.summaries ??= applicationSummaries(this.items);
    return this.summaries;
  }

  private searchTextOf(account: StorageAccount): string {
    let text = this.searchTexts.get(account);
    if (text === undefined) {
      text = searchTextOf(account);
      this.searchTexts.set(account, text);
    }
    return text;
  }
}

interface ReadModelHolder {
  /** The read model of the latest inputs, with those inputs. */
  current?: { inputs: readonly unknown[]; model: InventoryReadModel };
  /** The last successful read of the cluster by this process. */
  lastClusterRead?: string;
  /** Most items of a large inventory fall in a few classes with the same fields: they share one instance. */
  readonly classifications: SharedValues;
}

const holder = (): ReadModelHolder =>
  processWide('inventory.read-model', () => ({ classifications: new SharedValues() }));

const sameInputs = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((input, index) => input === b[index]);

/**
 * The read model of these inputs, compared by identity with the last ones: the same model while
 * they are the same, else a new one, which replaces it, made with `classify`.
 */
export function readModelOf(inputs: readonly unknown[], classify: () => readonly StorageAccount[]): InventoryReadModel {
  const state = holder();
  if (state.current && sameInputs(state.current.inputs, inputs)) return state.current.model;
  const model = new InventoryReadModel(classify);
  state.current = { inputs, model };
  return model;
}

/** The shared instance of a classification equal to this one, for the read model's items and single accounts alike. */
export function sharedClassification(classification: Classification): Classification {
  return holder().classifications.share(classification);
}

/** Records a successful read of the cluster now, and answers its time. */
export function noteClusterRead(): string {
  const now = new Date().toISOString();
  holder().lastClusterRead = now;
  return now;
}

export const lastClusterRead = (): string | undefined => holder().lastClusterRead;
