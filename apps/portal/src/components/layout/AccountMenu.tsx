'use client';
import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import Logout from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { Principal } from '@/lib/auth/permissions';

const SIGN_OUT_ACTION = '/api/auth/signout';

/**
 * Who is signed in, in the app bar: name and role (the name hides on phones, the role stays),
 * and a menu with the recorded identity and sign-out. Sign-out is a same-origin form POST.
 */
export function AccountMenu({ principal, canSignOut }: { principal: Principal; canSignOut: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const label = principal.name ?? principal.identity;
  return (
    <>
      <Button
        color="inherit"
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-controls={anchor ? menuId : undefined}
        aria-haspopup="menu"
        sx={{ textTransform: 'none', minWidth: 0, gap: 1 }}
        data-testid="account-button"
      >
        <AccountCircleOutlined aria-hidden />
        <Box
          component="span"
          sx={{ display: { xs: 'none', sm: 'inline' }, maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis' }}
        >
          {label}
        </Box>
        <Chip
          size="small"
          label={principal.role}
          data-testid="account-role"
          sx={{ color: 'inherit', borderColor: 'currentColor' }}
          variant="outlined"
        />
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <Box sx={{ px: 2, py: 1, maxWidth: 320 }}>
          <Typography variant="subtitle2" noWrap>
            {label}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
            {principal.identity}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Role: {principal.role}
          </Typography>
        </Box>
        {canSignOut ? <Divider /> : null}
        {canSignOut ? (
          <form method="post" action={SIGN_OUT_ACTION}>
            <MenuItem component="button" type="submit" sx={{ width: '100%' }}>
              <ListItemIcon>
                <Logout fontSize="small" />
              </ListItemIcon>
              Sign out
            </MenuItem>
          </form>
        ) : null}
      </Menu>
    </>
  );
}
