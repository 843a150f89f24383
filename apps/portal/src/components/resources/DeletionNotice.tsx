import Alert from '@mui/material/Alert';

/**
 * What the inventory says after a delete request, from what the list holds now: while the account
 * is still listed its deletion is pending; once it has left the list the deletion is done, and the
 * notice says so instead of still claiming a pending deletion.
 */
export function DeletionNotice({ name, stillListed }: { name: string; stillListed: boolean }) {
  return stillListed ? (
    <Alert severity="info" role="status" sx={{ mb: 2 }}>
      Deletion of <strong>{name}</strong> was requested. It disappears from this list once Azure has removed it.
    </Alert>
  ) : (
    <Alert severity="success" role="status" sx={{ mb: 2 }}>
      <strong>{name}</strong> was deleted and is no longer in the inventory.
    </Alert>
  );
}
