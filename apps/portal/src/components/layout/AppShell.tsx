'use client';
import AppsOutlined from '@mui/icons-material/AppsOutlined';
import CloudQueueOutlined from '@mui/icons-material/CloudQueueOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import MenuIcon from '@mui/icons-material/Menu';
import StorefrontOutlined from '@mui/icons-material/StorefrontOutlined';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import NextLink from 'next/link';
import { usePathname } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { isCurrentSection, NAVIGATION, type NavigationIcon } from './navigation';
import { ThemeToggle } from './ThemeToggle';

const DRAWER_WIDTH = 232;

const ICONS: Record<NavigationIcon, ReactNode> = {
  home: <HomeOutlined />,
  catalog: <StorefrontOutlined />,
  resources: <Inventory2Outlined />,
  applications: <AppsOutlined />,
};

function NavigationList({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  return (
    <List component="nav" aria-label="Main navigation">
      {NAVIGATION.map((item) => {
        const current = isCurrentSection(item.href, pathname);
        return (
          <ListItemButton
            key={item.href}
            component={NextLink}
            href={item.href}
            selected={current}
            aria-current={current ? 'page' : undefined}
            onClick={onNavigate}
          >
            <ListItemIcon>{ICONS[item.icon]}</ListItemIcon>
            <ListItemText primary={item.label} />
          </ListItemButton>
        );
      })}
    </List>
  );
}

/** App bar, navigation drawer (temporary on phones, permanent from md up) and the main area. */
export function AppShell({
  banner,
  account,
  children,
}: {
  banner?: ReactNode;
  /** Who is signed in (src/components/layout/AccountMenu.tsx), at the end of the app bar. */
  account?: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
        <Toolbar>
          <IconButton
            color="inherit"
            edge="start"
            aria-label="Open navigation"
            onClick={() => setOpen(true)}
            sx={{ mr: 1, display: { md: 'none' } }}
          >
            <MenuIcon />
          </IconButton>
          <CloudQueueOutlined sx={{ mr: 1 }} aria-hidden />
          <Typography
            component={NextLink}
            href="/"
            variant="h6"
            noWrap
            sx={{ flexGrow: 1, color: 'inherit', textDecoration: 'none', fontWeight: 600 }}
          >
            Platform portal
          </Typography>
          {account}
          <ThemeToggle />
        </Toolbar>
      </AppBar>
      <Drawer
        variant="temporary"
        open={open}
        onClose={() => setOpen(false)}
        ModalProps={{ keepMounted: true }}
        sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
      >
        <Toolbar />
        <NavigationList onNavigate={() => setOpen(false)} />
      </Drawer>
      <Drawer
        variant="permanent"
        sx={{
          display: { xs: 'none', md: 'block' },
          width: DRAWER_WIDTH,
          flexShrink: 0,
          '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
        }}
        open
      >
        <Toolbar />
        <NavigationList />
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}>
        <Toolbar />
        {banner}
        {children}
      </Box>
    </Box>
  );
}
