import 'server-only';
import type { PlatformBackend } from '../../model/backend';
import { PlatformUnavailableError } from '../../model/errors';

/** Answers every call with 503 when no cluster backend can be built, instead of failing obscurely. */
export function createUnconfiguredBackend(reason: string): PlatformBackend {
  const fail = async (): Promise<never> => {
    throw new PlatformUnavailableError(reason);
  };
  return {
    mode: 'kubernetes',
    list: fail,
    get: fail,
    create: fail,
    validate: fail,
    delete: fail,
    change: fail,
    resync: fail,
    writeAccount: fail,
    listResourceGroups: fail,
    events: fail,
    manifestYaml: fail,
  };
}
