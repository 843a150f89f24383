import { describe, expect, it } from 'vitest';
import type { Actor } from '@/lib/platform/intent';
import { nameLife, type LifeRecord } from './name-life';

const alice: Actor = { subject: 'idp#alice', display: 'alice@example.com' };
const bob: Actor = { subject: 'idp#bob', display: 'bob@example.com' };
const admin: Actor = { subject: 'idp#admin', display: 'admin@example.com' };

const record = (action: LifeRecord['action'], actor: Actor, status: LifeRecord['status'] = 'applied'): LifeRecord => ({
  action,
  actor,
  status,
});

describe('the life of a name in the ledger', () => {
  it('is not live without records, or once its last record is a completed delete', () => {
    expect(nameLife([])).toEqual({ live: false });
    expect(nameLife([record('delete', alice), record('create', alice)])).toEqual({ live: false });
  });

  it('stays live while a delete is pending or failed, and after a failed create', () => {
    expect(nameLife([record('delete', alice, 'pending'), record('create', alice)])).toEqual({
      live: true,
      owner: alice,
    });
    expect(nameLife([record('delete', alice, 'failed'), record('create', alice)])).toEqual({
      live: true,
      owner: alice,
    });
    expect(nameLife([record('create', alice, 'failed')])).toEqual({ live: true, owner: alice });
  });

  it('belongs to whoever created it, whoever changed or remediated it since', () => {
    const life = nameLife([
      record('recreate', admin),
      record('restore-intent', admin),
      record('accept-cloud', admin),
      record('change', bob),
      record('resync', admin),
      record('create', alice),
    ]);
    expect(life).toEqual({ live: true, owner: alice });
  });

  it('belongs to the adopting admin after an adopt', () => {
    expect(nameLife([record('manage', bob), record('adopt', admin)])).toEqual({ live: true, owner: admin });
  });

  it('starts a new life after a completed delete: the next creator owns it', () => {
    const life = nameLife([record('create', bob, 'pending'), record('delete', alice), record('create', alice)]);
    expect(life).toEqual({ live: true, owner: bob });
  });

  it('prefers a create that succeeded or is under way over a failed one', () => {
    expect(nameLife([record('create', bob, 'failed'), record('create', alice)]).owner).toEqual(alice);
  });

  it('names no owner for a life without a create or adopt', () => {
    expect(nameLife([record('change', bob)])).toEqual({ live: true });
  });
});
