import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { Principal, Role } from '@/lib/auth/permissions';
import { LinkButton } from './LinkButton';

export interface AccessRefusedProps {
  /** What the page is for, e.g. "Creating storage accounts". */
  title: string;
  principal: Principal;
  reason: string;
  needs: Role;
  grantingGroups: string[];
}

const NEEDED: Record<Role, string> = {
  viewer: 'viewer',
  requester: 'requester or admin',
  admin: 'admin',
};

function Entry({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body1" sx={{ m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </>
  );
}

/**
 * Shown in place of a page's form when the role may not use it: who is signed in, which role the
 * page needs, and how to get it. The page still answers 200; one column on phones.
 */
export function AccessRefused({ title, principal, reason, needs, grantingGroups }: AccessRefusedProps) {
  const who =
    principal.name && principal.name !== principal.identity
      ? `${principal.name} (${principal.identity})`
      : principal.identity;
  return (
    <Box data-testid="access-refused" sx={{ maxWidth: 720 }}>
      <Typography variant="h1" gutterBottom>
        You may not use this page
      </Typography>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {reason}.
      </Alert>
      <Paper component="section" aria-labelledby="access-refused-details" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h2" id="access-refused-details" gutterBottom>
          {title}
        </Typography>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
            columnGap: 2,
            rowGap: 1,
            m: 0,
          }}
        >
          <Entry label="Signed in as">{who}</Entry>
          <Entry label="Your role">{principal.role}</Entry>
          <Entry label="Role needed">{NEEDED[needs]}</Entry>
          <Entry label="How to get it">
            {grantingGroups.length > 0
              ? `Ask the platform team to add you to one of these groups at your identity provider: ${grantingGroups.join(', ')}. Then sign out and sign in again: the portal reads your groups when you sign in.`
              : 'Ask the platform team for the role. Then sign out and sign in again: the portal reads your role when you sign in.'}
          </Entry>
        </Box>
      </Paper>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <LinkButton href="/resources" variant="contained">
          See storage accounts
        </LinkButton>
        <LinkButton href="/" variant="outlined">
          Go to the overview
        </LinkButton>
      </Box>
    </Box>
  );
}
