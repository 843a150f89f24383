import InitColorSchemeScript from '@mui/material/InitColorSchemeScript';
import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { AccountMenu } from '@/components/layout/AccountMenu';
import { AppShell } from '@/components/layout/AppShell';
import { AuthBanner } from '@/components/layout/AuthBanner';
import { MockBanner } from '@/components/layout/MockBanner';
import { NotificationsMenu } from '@/components/layout/NotificationsMenu';
import { Providers } from '@/components/layout/Providers';
import { currentPrincipal } from '@/server/auth/current-principal';
import { loadConfig } from '@/server/runtime/config';
import { NONCE_HEADER } from '@/server/http/security-headers';
import { accountFeed } from '@/server/live/account-feed';
import { notificationCenter } from '@/server/live/notifications';
import { platformMode } from '@/server/services/storage-accounts';

export const metadata: Metadata = {
  title: { default: 'Platform portal', template: '%s · Platform portal' },
  description: 'Self-service Azure storage accounts, provisioned and reconciled by Crossplane.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/** The mock and sign-in banners, decided per request from the running server's environment, never at build time. */
async function PlatformBanner() {
  await connection();
  return (
    <>
      {platformMode() === 'mock' ? <MockBanner /> : null}
      <AuthBanner mode={loadConfig().auth.mode} />
    </>
  );
}

/** The signed-in user and their notifications in the app bar; nothing on the public sign-in pages, where nobody is signed in. */
async function Account() {
  await connection();
  const principal = await currentPrincipal();
  if (!principal) return null;
  return (
    <>
      <NotificationsMenu since={accountFeed().latestId} initial={notificationCenter().forUser(principal.subject)} />
      <AccountMenu principal={principal} canSignOut={loadConfig().auth.mode === 'oidc'} />
    </>
  );
}

/**
 * Every page renders per request: each gets the nonce src/proxy.ts made for it (Next.js puts it
 * on its own scripts; the colour-scheme script and emotion's style elements get it here).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    // The color-scheme script changes <html> before React hydrates; that difference is expected.
    <html lang="en" suppressHydrationWarning>
      <body>
        <InitColorSchemeScript attribute="class" nonce={nonce} />
        <Providers nonce={nonce}>
          <AppShell banner={<PlatformBanner />} account={<Account />}>
            {children}
          </AppShell>
        </Providers>
      </body>
    </html>
  );
}
