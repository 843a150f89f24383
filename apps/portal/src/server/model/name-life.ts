import 'server-only';
import type { Actor, IntentAction, IntentStatus } from '@/lib/platform/intent';

/**
 * Who a storage account name belongs to, from the ledger alone. A name's current life is every
 * record since its last completed delete; the name is live while that life has any record (a
 * pending delete, or even a failed create, still holds it). Its owner is whoever created or adopted
 * it in that life: changes, resyncs and remediations by others never move the name to them.
 */

/** The parts of a ledger record the rule reads. */
export interface LifeRecord {
  action: IntentAction;
  status: IntentStatus;
  actor: Actor;
}

export interface NameLife {
  /** The ledger holds intent for the name: its last record is not a completed delete. */
  live: boolean;
  /** Who created or adopted it in this life; undefined when the life holds neither (or the name is not live). */
  owner?: Actor;
}

/** The actions whose actor owns the name from then on. */
export const STARTS_A_LIFE: ReadonlySet<IntentAction> = new Set(['create', 'adopt']);

/** The life of a name from its records, newest first. */
export function nameLife(newestFirst: readonly LifeRecord[]): NameLife {
  const end = newestFirst.findIndex((record) => record.action === 'delete' && record.status === 'applied');
  const life = end === -1 ? newestFirst : newestFirst.slice(0, end);
  if (life.length === 0) return { live: false };
  const starts = life.filter((record) => STARTS_A_LIFE.has(record.action));
  // A failed create names an owner only when nothing in this life succeeded or is under way.
  const owner = (starts.find((record) => record.status !== 'failed') ?? starts[0])?.actor;
  return owner ? { live: true, owner: { subject: owner.subject, display: owner.display } } : { live: true };
}
