import 'server-only';
import { randomInt } from 'node:crypto';
import { generatedNamePrefix } from '@/lib/platform/account-manifest';
import { InvalidRequestError } from './errors';

/** A Kubernetes object name (DNS-1123 subdomain); accounts made outside the portal may use any. */
const OBJECT_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export function parseResourceName(value: string | null | undefined): string {
  const name = value?.trim() ?? '';
  if (name === '')
    throw new InvalidRequestError('Query parameter "name" is required', { fields: { name: 'Required' } });
  if (!OBJECT_NAME.test(name)) {
    throw new InvalidRequestError(`"${name.slice(0, 80)}" is not a valid resource name`, {
      fields: { name: 'Use lower-case letters, digits, "-" and "."; start and end with a letter or digit' },
    });
  }
  return name;
}

// The alphabet Kubernetes uses for generateName suffixes (no vowels, no look-alikes).
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const SUFFIX_LENGTH = 5;

/**
 * A name for an account whose request left it to the platform, chosen by the portal as
 * Kubernetes' generateName would (prefix and five random characters): the intent is recorded under
 * the account's name before the cluster is asked, so the name must be known first.
 */
export function generatedAccountName(application: string): string {
  const suffix = Array.from({ length: SUFFIX_LENGTH }, () => SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)]);
  return `${generatedNamePrefix(application)}${suffix.join('')}`;
}
