import 'server-only';
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
