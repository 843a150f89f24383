import fc from 'fast-check';

/**
 * Text near a UUID's edges, for properties that hold a shortcut to a general parser: valid ids in
 * every form Pydantic accepts (any case, braces, `urn:uuid:`, no hyphens) and ids with two
 * characters of junk put in at a random place.
 */
export const uuidLikeText = fc
  .tuple(
    fc.uuid(),
    fc.constantFrom('', 'upper', 'braces', 'urn', 'urn-upper', 'simple', 'mutate'),
    fc.nat(40),
    fc.string(),
  )
  .map(([uuid, form, at, junk]) => {
    switch (form) {
      case 'upper':
        return uuid.toUpperCase();
      case 'braces':
        return `{${uuid}}`;
      case 'urn':
        return `urn:uuid:${uuid}`;
      case 'urn-upper':
        return `urn:uuid:${uuid.toUpperCase()}`;
      case 'simple':
        return uuid.replaceAll('-', '');
      case 'mutate':
        return uuid.slice(0, at) + junk.slice(0, 2) + uuid.slice(at + 1);
      default:
        return uuid;
    }
  });
