import type { ReactNode } from 'react';
import { requirePageAction } from '@/server/auth/page-access';

/**
 * The create form is for roles that may create. The check sits in this layout, above every
 * loading boundary (the catalog's own loading state lives in its (overview) group), so a refusal
 * is decided before anything streams and answers HTTP 403 with ../forbidden.tsx.
 */
export default async function AzureStorageLayout({ children }: { children: ReactNode }) {
  await requirePageAction('create');
  return children;
}
