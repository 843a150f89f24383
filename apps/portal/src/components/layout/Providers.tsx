'use client';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { AppRouterCacheProvider } from '@mui/material-nextjs/v16-appRouter';
import type { ReactNode } from 'react';
import { theme } from './theme';

/** `nonce`: this request's CSP nonce, which every style element emotion writes must carry. */
export function Providers({ children, nonce }: { children: ReactNode; nonce?: string | undefined }) {
  return (
    <AppRouterCacheProvider options={{ key: 'mui', ...(nonce === undefined ? {} : { nonce }) }}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </AppRouterCacheProvider>
  );
}
