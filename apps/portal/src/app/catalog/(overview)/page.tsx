import Box from '@mui/material/Box';
import type { Metadata } from 'next';
import { OfferingCard } from '@/components/catalog/OfferingCard';
import { OFFERINGS } from '@/components/catalog/offerings';
import { PageHeader } from '@/components/common/PageHeader';

export const metadata: Metadata = { title: 'Catalog' };

export default function CatalogPage() {
  return (
    <>
      <PageHeader
        title="Catalog"
        description="Cloud resources you can request yourself. The platform provisions them and keeps them as declared."
      />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(3, 1fr)' } }}>
        {OFFERINGS.map((offering) => (
          <OfferingCard key={offering.id} offering={offering} />
        ))}
      </Box>
    </>
  );
}
