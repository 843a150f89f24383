import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DeletionNotice } from './DeletionNotice';

describe('deletion notice on the inventory', () => {
  it('says the deletion is pending while the account is still listed', () => {
    render(<DeletionNotice name="stshop01" stillListed />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Deletion of stshop01 was requested. It disappears from this list once Azure has removed it.',
    );
  });

  it('confirms the deletion, without claiming it is pending, once the account has left the list', () => {
    render(<DeletionNotice name="stshop01" stillListed={false} />);
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('stshop01 was deleted and is no longer in the inventory.');
    expect(notice).not.toHaveTextContent(/requested|disappears/);
  });
});
