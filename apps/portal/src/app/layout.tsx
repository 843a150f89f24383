import InitColorSchemeScript from '@mui/material/InitColorSchemeScript';
import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/layout/AppShell';
import { MockBanner } from '@/components/layout/MockBanner';
import { Providers } from '@/components/layout/Providers';
import { platformMode } from '@/server/platform/storage-accounts';

export const metadata: Metadata = {
  title: { default: 'Platform portal', template: '%s · Platform portal' },
  description: 'Self-service Azure storage accounts, provisioned and reconciled by Crossplane.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/** The mock banner, decided per request from the running server's environment, never at build time. */
async function PlatformBanner() {
  await connection();
  return platformMode() === 'mock' ? <MockBanner /> : null;
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The color-scheme script changes <html> before React hydrates; that difference is expected.
    <html lang="en" suppressHydrationWarning>
      <body>
        <InitColorSchemeScript attribute="class" />
        <Providers>
          <AppShell banner={<PlatformBanner />}>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
