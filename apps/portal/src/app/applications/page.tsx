import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { Metadata } from 'next';
import { AppLink, LinkButton } from '@/components/common/LinkButton';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { LiveUpdates } from '@/components/resources/LiveUpdates';
import { inventoryHref } from '@/components/resources/inventory-href';
import { StateChip } from '@/components/resources/StateChip';
import { applicationsPage, parseApplicationsCursor } from '@/server/services/inventory/applications-page';
import { loadPlatformData } from '@/server/services/page-data';
import { platformMode, summariseApplications } from '@/server/services/storage-accounts';
import { accountFeed } from '@/server/live/account-feed';

export const metadata: Metadata = { title: 'Applications' };

const UNLABELLED = 'Not assigned to an application';

type SearchParams = Record<string, string | string[] | undefined>;

const applicationsHref = (cursor: string) => `/applications?${new URLSearchParams({ cursor }).toString()}`;

export default async function ApplicationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const raw = (await searchParams)['cursor'];
  // A hand-edited cursor shows the first page rather than an error page.
  const cursor = parseApplicationsCursor(Array.isArray(raw) ? raw[0] : raw);
  const since = accountFeed().latestId;
  const loaded = await loadPlatformData(async () => applicationsPage(await summariseApplications(), { cursor }));
  return (
    <>
      <PageHeader
        title="Applications"
        description="Storage accounts grouped by the application they belong to, as recorded when they were requested or last changed."
      />
      {!loaded.ok ? (
        <PlatformProblem message={loaded.message} status={loaded.status} />
      ) : loaded.value.total === 0 ? (
        <Card>
          <CardContent>
            <Typography variant="h2" gutterBottom>
              No applications yet
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {platformMode() === 'mock'
                ? 'Development mode stores nothing, so no application is listed, even after a create succeeds. Connect a cluster to see real applications.'
                : 'An application appears here as soon as a resource is requested for it.'}
            </Typography>
            <LinkButton href="/catalog" variant="contained">
              Request a resource
            </LinkButton>
          </CardContent>
        </Card>
      ) : (
        <>
          <LiveUpdates since={since} />
          <TableContainer component={Paper}>
            <Table aria-label="Applications and their storage accounts" sx={{ tableLayout: 'fixed' }}>
              <TableHead>
                <TableRow>
                  <TableCell>Application</TableCell>
                  <TableCell>Environments</TableCell>
                  <TableCell>Storage accounts</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {loaded.value.items.map(({ application, environments, total, accounts }) => (
                  <TableRow key={application ?? UNLABELLED} sx={{ verticalAlign: 'top' }}>
                    <TableCell component="th" scope="row" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                      {application ?? UNLABELLED}
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{environments.join(', ') || '—'}</TableCell>
                    <TableCell>
                      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.5 }}>
                        {accounts.map((account) => (
                          <Box
                            component="li"
                            key={account.name}
                            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', minWidth: 0 }}
                          >
                            <AppLink
                              href={`/resources/${encodeURIComponent(account.name)}`}
                              sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                            >
                              {account.name}
                            </AppLink>
                            <StateChip state={account.state} />
                          </Box>
                        ))}
                      </Box>
                      {total > accounts.length && application ? (
                        <AppLink href={inventoryHref({ q: application })} sx={{ display: 'inline-block', mt: 0.5 }}>
                          {`All ${total.toLocaleString('en')} storage accounts`}
                        </AppLink>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Box
              component="nav"
              aria-label="Applications pages"
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', p: 2 }}
            >
              <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
                {`${(loaded.value.start + 1).toLocaleString('en')}–${(
                  loaded.value.start + loaded.value.items.length
                ).toLocaleString('en')} of ${loaded.value.total.toLocaleString('en')} applications`}
              </Typography>
              <PageLink label="Previous page" cursor={loaded.value.previous} />
              <PageLink label="Next page" cursor={loaded.value.next} />
            </Box>
          </TableContainer>
        </>
      )}
    </>
  );
}

function PageLink({ label, cursor }: { label: string; cursor: string | null }) {
  return cursor ? (
    <LinkButton href={applicationsHref(cursor)} size="small" variant="outlined">
      {label}
    </LinkButton>
  ) : (
    <Button size="small" variant="outlined" disabled>
      {label}
    </Button>
  );
}
