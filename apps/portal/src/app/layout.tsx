import InitColorSchemeScript from '@mui/material/InitColorSchemeScript';
import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { AppShell } from '@/components/layout/AppShell';
import { MockBanner } from '@/components/layout/MockBanner';
import { Providers } from '@/components/layout/Providers';

export const metadata: Metadata = {
  title: { default: 'Platform portal', template: '%s · Platform portal' },
  description: 'Self-service Azure storage accounts, provisioned and reconciled by Crossplane.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The color-scheme script changes <html> before React hydrates; that difference is expected.
    <html lang="en" suppressHydrationWarning>
      <body>
        <InitColorSchemeScript attribute="class" />
        <Providers>
          <AppShell banner={<MockBanner />}>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
