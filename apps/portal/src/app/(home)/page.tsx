import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { Metadata } from 'next';
import { LinkButton, LinkCardArea } from '@/components/common/LinkButton';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { CLASSIFICATION_LABELS, type ClassificationCode } from '@/lib/platform/classification';
import { ACCOUNT_STATES } from '@/lib/platform/types';
import { loadPlatformData } from '@/server/services/page-data';
import { countStorageAccounts } from '@/server/services/storage-accounts';

export const metadata: Metadata = { title: { absolute: 'Platform portal' } };

export default async function LandingPage() {
  const loaded = await loadPlatformData(countStorageAccounts);
  return (
    <>
      <PageHeader
        title="Self-service cloud platform"
        description="Request Azure resources in minutes. The platform creates them through Crossplane with secure defaults, watches them, and shows you their state."
        actions={
          <>
            <LinkButton href="/catalog" variant="contained">
              Browse the catalog
            </LinkButton>
            <LinkButton href="/resources" variant="outlined">
              View resources
            </LinkButton>
          </>
        }
      />
      <Typography variant="h2" gutterBottom>
        Storage accounts by state
      </Typography>
      {loaded.ok ? (
        <Box
          component="ul"
          aria-label="Storage accounts by state"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, 1fr)', lg: 'repeat(6, 1fr)' },
          }}
        >
          {[
            { label: 'Total', href: '/resources', count: loaded.value.total },
            ...ACCOUNT_STATES.map((state) => ({
              label: state,
              href: `/resources?state=${state}`,
              count: loaded.value.byState[state],
            })),
          ].map((tile) => (
            <Box component="li" key={tile.label}>
              <Card sx={{ height: '100%' }}>
                <LinkCardArea href={tile.href} sx={{ height: '100%' }}>
                  <CardContent>
                    <Typography variant="h3" component="p" sx={{ fontSize: '2rem' }}>
                      {tile.count}
                    </Typography>
                    <Typography color="text.secondary">{tile.label}</Typography>
                  </CardContent>
                </LinkCardArea>
              </Card>
            </Box>
          ))}
        </Box>
      ) : (
        <PlatformProblem message={loaded.message} status={loaded.status} />
      )}
      {loaded.ok ? (
        <>
          <Typography variant="h2" sx={{ mt: 4 }} gutterBottom>
            Storage accounts against intent
          </Typography>
          <Box
            component="ul"
            aria-label="Storage accounts against intent"
            sx={{
              listStyle: 'none',
              p: 0,
              m: 0,
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, 1fr)', lg: 'repeat(5, 1fr)' },
            }}
          >
            {Object.entries(loaded.value.byClass).map(([code, count]) => (
              <Box component="li" key={code}>
                <Card sx={{ height: '100%' }}>
                  <LinkCardArea href={`/resources?class=${code}`} sx={{ height: '100%' }}>
                    <CardContent>
                      <Typography variant="h3" component="p" sx={{ fontSize: '2rem' }}>
                        {count}
                      </Typography>
                      <Typography color="text.secondary">
                        {CLASSIFICATION_LABELS[code as ClassificationCode]}
                      </Typography>
                    </CardContent>
                  </LinkCardArea>
                </Card>
              </Box>
            ))}
          </Box>
        </>
      ) : null}
      <Typography variant="h2" sx={{ mt: 4 }} gutterBottom>
        What the platform offers
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        {[
          [
            'Self-service',
            'Pick an offering in the catalog and fill in a guided form; the rules of Azure are checked as you type.',
          ],
          [
            'Secure by default',
            'TLS 1.2, HTTPS-only traffic, infrastructure encryption and no public containers on every account.',
          ],
          [
            'Reconciled continuously',
            'Crossplane keeps each resource as declared and reports its state back to this portal.',
          ],
        ].map(([title, text]) => (
          <Card key={title}>
            <CardContent>
              <Typography variant="h3" component="h3" gutterBottom>
                {title}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {text}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </>
  );
}
