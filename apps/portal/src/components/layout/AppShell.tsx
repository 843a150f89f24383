'use client';
import AppsOutlined from '@mui/icons-material/AppsOutlined';
import CloudQueueOutlined from '@mui/icons-material/CloudQueueOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import MenuIcon from '@mui/icons-material/Menu';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
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
import { RouteFocus } from './RouteFocus';
import { ThemeToggle } from './ThemeToggle';

const DRAWER_WIDTH = 232;
const MAIN_ID = 'main-content';

const ICONS: Record<NavigationIcon, ReactNode> = {
  home: <HomeOutlined />,
  catalog: <StorefrontOutlined />,
  resources: <Inventory2Outlined />,
  applications: <AppsOutlined />,
  settings: <SettingsOutlined />,
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
            sx={{
              borderLeft: 4,
              borderColor: 'transparent',
              // The current section must stand out by more than a faint tint: a bar, bold text, color.
              '&[aria-current="page"]': {
                borderColor: 'primary.main',
                color: 'primary.main',
                fontWeight: 700,
                '& .MuiListItemIcon-root': { color: 'primary.main' },
                '& .MuiListItemText-primary': { fontWeight: 700 },
              },
            }}
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
      <Box
        component="a"
        href={`#${MAIN_ID}`}
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: (theme) => theme.zIndex.tooltip + 1,
          px: 2,
          py: 1,
          bgcolor: 'background.paper',
          color: 'primary.main',
          border: 2,
          borderColor: 'primary.main',
          borderRadius: 1,
          fontWeight: 600,
          '&:focus': { top: 8 },
        }}
      >
        Skip to main content
      </Box>
      <RouteFocus mainId={MAIN_ID} />
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
        slotProps={{ paper: { 'aria-label': 'Navigation menu' } }}
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
      <Box
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3 }, '&:focus': { outline: 'none' } }}
      >
        <Toolbar />
        {banner}
        {children}
      </Box>
    </Box>
  );
}
