'use client';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { buildAccountManifest, type AccountManifest } from '@/lib/platform/account-manifest';
import { accountNamespace, CLUSTER_SCOPE, type AccountScope } from '@/lib/platform/account-scope';
import type { FieldErrors } from '@/lib/platform/storage-request';
import type { Location } from '@/lib/platform/storage-rules';
import type { ResourceGroup } from '@/lib/platform/types';
import { createResource, validateResource } from '@/components/resources/platform-client';
import { FORM_STEPS, previewRequest, toRequestInput, type StorageFormField } from './storage-form-model';
import { BasicsSection } from './storage-form/BasicsSection';
import { DataLakeSection } from './storage-form/DataLakeSection';
import { ErrorSummary, problemsIn } from './storage-form/ErrorSummary';
import { focusField } from './storage-form/fields';
import { ManifestPreview } from './storage-form/ManifestPreview';
import { NetworkSection } from './storage-form/NetworkSection';
import { PerformanceSection } from './storage-form/PerformanceSection';
import { PlacementSection } from './storage-form/PlacementSection';
import { useStorageForm } from './storage-form/use-storage-form';

const STEP_TITLES = [...FORM_STEPS.map((step) => step.title), 'Review'];
const REVIEW = FORM_STEPS.length;

type Review =
  { status: 'checking' } | { status: 'passed'; manifest: AccountManifest } | { status: 'failed'; message: string };

/** The step that holds a field, so a problem found later can send the person back to it. */
const stepOf = (field: string) => FORM_STEPS.findIndex((step) => (step.fields as readonly string[]).includes(field));

/**
 * The storage account workflow: basics, then networking and security, then a review that shows
 * the exact manifest and the server's dry run. Nothing is created before the person confirms;
 * the create carries an idempotency key, so a double click or a retry creates one account.
 */
export function StorageAccountForm({
  resourceGroups,
  locations,
  scope = CLUSTER_SCOPE,
}: {
  resourceGroups: ResourceGroup[];
  /** The locations platform policy allows (PORTAL_ALLOWED_LOCATIONS). */
  locations: readonly Location[];
  /** Where Accounts live (PORTAL_ACCOUNT_SCOPE): the preview and the offered groups follow it. */
  scope?: AccountScope;
}) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [step, setStep] = useState(0);
  const [review, setReview] = useState<Review>();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [showProblems, setShowProblems] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ field?: StorageFormField; step: number }>();
  // One key per reviewed request: a repeated click or retry of the same request reuses it.
  const idempotencyKey = useRef<string>('');
  const form = useStorageForm({ resourceGroups, locations }, () => setFailure(undefined));
  const draftManifest = useMemo(
    () => buildAccountManifest(previewRequest(form.values), {}, scope),
    [form.values, scope],
  );
  // In namespaced scope an account may use only the resource groups of its application's namespace.
  const namespace = accountNamespace(scope, form.values);
  const groupsHere = useMemo(
    () => (namespace === undefined ? resourceGroups : resourceGroups.filter((group) => group.namespace === namespace)),
    [resourceGroups, namespace],
  );

  // Focus moves after the step has rendered: to the field asked for, else the step's heading.
  useEffect(() => {
    if (!focusRequest || focusRequest.step !== step) return;
    if (focusRequest.field) focusField(formRef.current, focusRequest.field);
    else headingRef.current?.focus();
    setFocusRequest(undefined);
  }, [focusRequest, step]);

  const stepFields: readonly StorageFormField[] = step < REVIEW ? FORM_STEPS[step]!.fields : [];
  const problems = showProblems ? problemsIn(stepFields, form.errorFor) : [];

  const goTo = (next: number, field?: StorageFormField) => {
    setStep(next);
    setFocusRequest({ step: next, ...(field ? { field } : {}) });
  };

  const showServerProblem = (message: string, fields: FieldErrors | undefined, status: number) => {
    const serverFields = { ...fields };
    if (status === 409 && !serverFields.name) serverFields.name = message;
    form.setServerErrors(serverFields);
    const first = Object.keys(serverFields).find((field) => stepOf(field) >= 0) as StorageFormField | undefined;
    if (first) {
      setShowProblems(true);
      goTo(stepOf(first), first);
    }
    return first;
  };

  const startReview = async () => {
    idempotencyKey.current = newIdempotencyKey();
    setReview({ status: 'checking' });
    goTo(REVIEW);
    const result = await validateResource(toRequestInput(form.values));
    if (result.ok) {
      setReview({ status: 'passed', manifest: result.value.manifest });
      return;
    }
    if (!showServerProblem(result.error, result.fields, result.status)) {
      setReview({ status: 'failed', message: result.error });
    }
  };

  const next = () => {
    form.markAttempted();
    const found = problemsIn(stepFields, form.problemOf);
    if (found.length > 0) {
      setShowProblems(true);
      setFocusRequest({ step, field: found[0]![0] });
      return;
    }
    setShowProblems(false);
    if (step + 1 < REVIEW) goTo(step + 1);
    else void startReview();
  };

  const create = async () => {
    if (creating || created || review?.status !== 'passed') return;
    setCreating(true);
    setFailure(undefined);
    const result = await createResource(toRequestInput(form.values), idempotencyKey.current);
    if (result.ok) {
      const name = result.value.item.name;
      setCreated(name);
      router.push(`/resources/${encodeURIComponent(name)}`);
      return;
    }
    setCreating(false);
    if (!showServerProblem(result.error, result.fields, result.status)) setFailure(result.error);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step === REVIEW) void create();
    else next();
  };

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
        alignItems: 'start',
      }}
    >
      <Paper
        component="form"
        ref={formRef}
        noValidate
        onSubmit={onSubmit}
        aria-label="Storage account request"
        sx={{ p: { xs: 2, sm: 3 } }}
      >
        <Stack spacing={4}>
          <Stepper activeStep={step} alternativeLabel component="ol" sx={{ p: 0, m: 0, listStyle: 'none' }}>
            {STEP_TITLES.map((title, index) => (
              <Step key={title} component="li" completed={index < step}>
                <StepLabel {...(index === step ? { 'aria-current': 'step' as const } : {})}>{title}</StepLabel>
              </Step>
            ))}
          </Stepper>
          <Typography
            component="h2"
            variant="h2"
            tabIndex={-1}
            ref={headingRef}
            sx={{ outline: 'none' }}
          >{`Step ${step + 1} of ${STEP_TITLES.length}: ${STEP_TITLES[step]}`}</Typography>

          {problems.length > 0 ? (
            <ErrorSummary problems={problems} onSelect={(field) => focusField(formRef.current, field)} />
          ) : null}

          {step === 0 ? (
            <>
              <BasicsSection form={form} />
              <PlacementSection form={form} resourceGroups={groupsHere} locations={locations} />
              <PerformanceSection form={form} />
            </>
          ) : null}
          {step === 1 ? (
            <>
              <NetworkSection form={form} />
              <DataLakeSection form={form} />
            </>
          ) : null}
          {step === REVIEW ? <ReviewStatus review={review} /> : null}

          {failure ? (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          ) : null}
          {created ? (
            <Alert severity="success" role="status">
              <AlertTitle>Storage account requested</AlertTitle>
              The platform is creating <strong>{created}</strong>. Opening its page…
            </Alert>
          ) : null}

          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
            {step > 0 ? (
              <Button variant="outlined" disabled={creating} onClick={() => goTo(step - 1)}>
                Back
              </Button>
            ) : null}
            {step < REVIEW ? (
              <Button type="submit" variant="contained">
                {step + 1 < REVIEW ? 'Next' : 'Review'}
              </Button>
            ) : (
              <Button type="submit" variant="contained" disabled={review?.status !== 'passed' || creating || !!created}>
                {creating || created ? 'Creating…' : 'Create storage account'}
              </Button>
            )}
          </Box>
        </Stack>
      </Paper>

      {step === REVIEW && review?.status === 'passed' ? (
        <ManifestPreview
          manifest={review.manifest}
          description="Exactly what the server will submit, as its dry run built it. Nothing exists yet."
        />
      ) : (
        <ManifestPreview manifest={draftManifest} />
      )}
    </Box>
  );
}

/** 128 random bits as hex; getRandomValues works on plain-HTTP origins too, randomUUID does not. */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What the server's dry run said about the request under review. */
function ReviewStatus({ review }: { review: Review | undefined }) {
  if (!review || review.status === 'checking') {
    return (
      <Alert severity="info" role="status">
        Checking the request with the platform (dry run)…
      </Alert>
    );
  }
  if (review.status === 'failed') {
    return (
      <Alert severity="error" role="alert">
        <AlertTitle>The platform would refuse this request</AlertTitle>
        {review.message}
      </Alert>
    );
  }
  return (
    <Alert severity="success" role="status">
      <AlertTitle>Dry run passed</AlertTitle>
      The platform would accept this request. Nothing has been created yet: check the manifest, then create the storage
      account.
    </Alert>
  );
}
