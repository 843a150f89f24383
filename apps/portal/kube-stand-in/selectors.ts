/**
 * Label and field selectors in the syntax of k8s.io/apimachinery: `a=b,c!=d,e,!f,g in (h,i)`.
 * A field selector only accepts =, == and !=, and only the fields the resource declares.
 */
import { badRequest } from './status.js';

type Operator = 'eq' | 'neq' | 'exists' | 'notexists' | 'in' | 'notin';

export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

export type Selector = Requirement[];

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

export function parseLabelSelector(text: string | null): Selector {
  if (!text) return [];
  return splitTopLevel(text).map((part) => {
    const setMatch = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (setMatch) {
      const values = (setMatch[3] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
      return { key: setMatch[1] ?? '', operator: setMatch[2] as Operator, values };
    }
    const opMatch = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s!=]*)$/.exec(part);
    if (opMatch) {
      return { key: opMatch[1] ?? '', operator: opMatch[2] === '!=' ? 'neq' : 'eq', values: [opMatch[3] ?? ''] };
    }
    if (/^![^\s!=]+$/.test(part)) return { key: part.slice(1), operator: 'notexists', values: [] };
    if (/^[^\s!=()]+$/.test(part)) return { key: part, operator: 'exists', values: [] };
    throw badRequest(`unable to parse requirement: found '${part}', expected: in, notin, =, ==, !=, gt, lt`);
  });
}

export function parseFieldSelector(text: string | null, supportedFields: readonly string[]): Selector {
  if (!text) return [];
  return splitTopLevel(text).map((part) => {
    const match = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!match) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const key = match[1] ?? '';
    if (!supportedFields.includes(key)) throw badRequest(`field label not supported: ${key}`);
    return { key, operator: match[2] === '!=' ? 'neq' : 'eq', values: [match[3] ?? ''] };
  });
}

export function matches(selector: Selector, lookup: (key: string) => string | undefined): boolean {
  return selector.every(({ key, operator, values }) => {
    const value = lookup(key);
    switch (operator) {
      case 'eq':
        return value === values[0];
      case 'neq':
        return value !== values[0];
      case 'exists':
        return value !== undefined;
      case 'notexists':
        return value === undefined;
      case 'in':
        return value !== undefined && values.includes(value);
      case 'notin':
        return value === undefined || !values.includes(value);
    }
  });
}

/** Reads a dotted path such as involvedObject.name out of an object, as field selectors do. */
export function fieldValue(object: unknown, path: string): string | undefined {
  let current: unknown = object;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null) return '';
    current = (current as Record<string, unknown>)[segment];
  }
  if (typeof current === 'string') return current;
  if (typeof current === 'number' || typeof current === 'boolean') return String(current);
  return current === undefined || current === null ? '' : JSON.stringify(current);
}
