/**
 * Microsoft.Storage/checkNameAvailability as Azure Resource Manager answers it: a storage account
 * name is global, so a name held in any subscription (this one's accounts, or one marked as taken
 * elsewhere) is `AlreadyExists`; a name outside Azure's rule is `AccountNameInvalid`.
 */
import type { SimulatedAzure } from './azure.js';

const STORAGE_ACCOUNT_TYPE = 'microsoft.storage/storageaccounts';
const VALID_NAME = /^[a-z0-9]{3,24}$/;

export interface NameCheckAnswer {
  nameAvailable: boolean;
  reason?: 'AccountNameInvalid' | 'AlreadyExists';
  message?: string;
}

/** The answer for a request body; undefined when the body is not a name check ARM would accept (400). */
export function checkNameAvailability(
  azure: SimulatedAzure,
  body: Record<string, unknown>,
): NameCheckAnswer | undefined {
  const { name, type } = body;
  if (typeof name !== 'string' || typeof type !== 'string' || type.toLowerCase() !== STORAGE_ACCOUNT_TYPE) {
    return undefined;
  }
  if (!VALID_NAME.test(name)) {
    return {
      nameAvailable: false,
      reason: 'AccountNameInvalid',
      message: `${name} is not a valid storage account name. Storage account name must be between 3 and 24 characters in length and use numbers and lower-case letters only.`,
    };
  }
  if (azure.nameTaken(name)) {
    return {
      nameAvailable: false,
      reason: 'AlreadyExists',
      message: `The storage account named ${name} is already taken.`,
    };
  }
  return { nameAvailable: true };
}
