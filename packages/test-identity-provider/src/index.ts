/**
 * What a test OpenID Provider built on the certified `oidc-provider` package leaves to its host:
 * the interaction pages. A password sign-in page of our own (the package's development pages pull
 * fonts from the internet) and consent granted for everything asked. The API's tests and the
 * portal's journeys (and dev:stack) configure their providers for what each checks; people sign
 * in to both alike, here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';

export interface PasswordUser {
  /** Typed on the sign-in page; also the subject (`sub`). */
  readonly login: string;
  readonly password: string;
}

/** The provider's `interactions` setting: it sends people to our pages at /interaction/<uid>. */
export const INTERACTIONS: NonNullable<Configuration['interactions']> = {
  url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
};

/** The interaction a request URL is for, or undefined for a request the provider answers itself. */
export function interactionUid(url: string): string | undefined {
  return /^\/interaction\/([^/?]+)/.exec(url)?.[1];
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A whole page; `body` is HTML. */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:sans-serif;max-width:24rem;margin:2rem auto"><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(html);
}

function signInForm(uid: string, problem?: string): string {
  return page(
    'Test identity provider: sign in',
    `${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
  <label>Username <input name="login" autocomplete="username" required></label><br>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label><br>
  <button type="submit">Sign in</button>
</form>`,
  );
}

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** A password check for a login prompt; for any other prompt, consent to every scope, claim and resource asked. */
async function interaction(
  provider: Provider,
  users: ReadonlyMap<string, PasswordUser>,
  request: IncomingMessage,
  response: ServerResponse,
  uid: string,
): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  if (details.prompt.name === 'login') {
    if (request.method !== 'POST') return sendHtml(response, 200, signInForm(uid));
    const form = await formBody(request);
    const user = users.get(form.get('login') ?? '');
    if (!user || user.password !== form.get('password')) {
      return sendHtml(response, 401, signInForm(uid, 'Unknown user or wrong password'));
    }
    return provider.interactionFinished(request, response, { login: { accountId: user.login } });
  }
  const { session, params, grantId } = details;
  const grant = grantId
    ? await provider.Grant.find(grantId)
    : new provider.Grant({ accountId: session?.accountId ?? '', clientId: String(params.client_id) });
  if (!grant) throw new Error('grant vanished');
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  return provider.interactionFinished(
    request,
    response,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

/** Answers a request for /interaction/<uid> (see interactionUid); a failure is a 500 page naming it. */
export function answerInteraction(
  provider: Provider,
  users: ReadonlyMap<string, PasswordUser>,
  request: IncomingMessage,
  response: ServerResponse,
  uid: string,
): void {
  interaction(provider, users, request, response, uid).catch((error: unknown) => {
    sendHtml(response, 500, page('Interaction failed', escapeHtml(String(error))));
  });
}
