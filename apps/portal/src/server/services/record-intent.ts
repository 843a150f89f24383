import 'server-only';
import { currentTraceId } from '../telemetry/trace-context';
import type { Principal } from '@/lib/auth/permissions';
import type { Actor, HistoryItem } from '@/lib/platform/intent';
import { expectOutcome } from '../live/follow-accounts';
import { logger } from '../runtime/logger';
import type { RequestContext } from '../model/backend';
import { PlatformError } from '../model/errors';
import { parseResourceName } from '../model/resource-name';
import type { CreateFacts, NewIntent } from '../model/ledger';
import { getIntentLedger } from '../backends/ledger/select-ledger';

/** The person behind a request as the ledger records them: the subject ownership compares, and a name to show. */
export function actorOf(principal: Principal): Actor {
  return { subject: principal.subject, display: principal.identity };
}

/** Why an action failed, in words that may be shown to anyone who reads the history. */
function failureReason(error: unknown): string {
  if (error instanceof PlatformError && error.expose) return error.message;
  return `The platform could not complete the request (HTTP ${error instanceof PlatformError ? error.status : 500})`;
}

/**
 * Records the intent, then runs the cluster call, then records how it ended. Nothing reaches the
 * cluster unrecorded: when the ledger cannot take the intent, the action is refused (503). An
 * outcome that cannot be written is logged; the intent then stays pending in the history. A create
 * passes `check`, which the ledger runs in the same step as the append (ledger.appendCreate).
 */
export async function recordedAction<T>(
  intent: Omit<NewIntent, 'actor' | 'requestId'>,
  context: RequestContext,
  apply: () => Promise<T>,
  check?: (facts: CreateFacts) => void,
): Promise<T> {
  const ledger = getIntentLedger();
  const traceId = currentTraceId();
  const full: NewIntent = {
    ...intent,
    actor: actorOf(context.principal),
    requestId: context.requestId,
    ...(traceId === undefined ? {} : { traceId }),
  };
  const record = check ? await ledger.appendCreate(full, check) : await ledger.append(full);
  const settle = async (outcome: Parameters<typeof ledger.settle>[1]) => {
    try {
      await ledger.settle(record.id, outcome);
    } catch (error) {
      logger().error(
        { err: error, intent: record.id, account: record.account, requestId: context.requestId },
        'intent outcome could not be recorded; the history shows it pending',
      );
    }
  };
  let result: T;
  try {
    result = await apply();
  } catch (error) {
    await settle({ status: 'failed', reason: failureReason(error) });
    throw error;
  }
  await settle({ status: 'applied' });
  expectOutcome(intent.account, context.principal.subject, intent.action, result);
  return result;
}

/** The history of one account, newest first (GET /api/platform/resources/history). */
export function accountHistory(rawName: string | null): Promise<HistoryItem[]> {
  return getIntentLedger().history(parseResourceName(rawName));
}

/** False when intent lives in this process's memory only (no PORTAL_DATABASE_URL). */
export function intentIsDurable(): boolean {
  return getIntentLedger().durable;
}
