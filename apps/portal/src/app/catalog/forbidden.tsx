import { AccessRefused } from '@/components/common/AccessRefused';
import { pageRefusal } from '@/server/auth/page-access';

/** The 403 page of the catalog's forms: only the create form refuses roles (its layout decides). */
export default async function CatalogForbidden() {
  const refusal = await pageRefusal('create');
  if (!refusal) return null;
  return <AccessRefused title="Creating storage accounts" {...refusal} />;
}
