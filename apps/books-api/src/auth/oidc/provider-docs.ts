import { PASSWORD_SECURITY_SCHEME } from '../../openapi/security-schemes.js';
import type { ProviderMetadata } from './provider-keys.js';

/** AUTH_OIDC_DOCS_CLIENT_ID and AUTH_OIDC_DOCS_SCOPES: /docs signs in with the provider (authorization code + PKCE). */
export interface ProviderDocsSettings {
  /** A public client registered with the provider, its redirect URI /docs/static/oauth2-redirect.html. */
  readonly clientId: string;
  /** The scopes /docs asks for (preselected in the Authorize dialog). */
  readonly scopes: readonly string[];
}

/** FastAPI's name for the same scheme (fastapi.security.OAuth2AuthorizationCodeBearer). */
const PROVIDER_SECURITY_SCHEME = 'OAuth2AuthorizationCodeBearer';

type SecurityRequirement = Record<string, string[]>;
interface Operation {
  security?: SecurityRequirement[];
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
}

/** The provider's endpoints for the authorization-code flow, when discovery named both. */
function flowEndpoints(metadata: ProviderMetadata | undefined) {
  if (metadata?.authorizationEndpoint === undefined || metadata.tokenEndpoint === undefined) return undefined;
  return { authorizationUrl: metadata.authorizationEndpoint, tokenUrl: metadata.tokenEndpoint };
}

/**
 * The OpenAPI document with the provider's authorization-code flow as a second way to sign in,
 * wherever the password login is one: Swagger UI's Authorize then offers both. `document` is
 * changed in place (the caller passes a copy). Without discovered endpoints (the provider has
 * not answered yet) the document stays as it is, with the password login only.
 */
export function addProviderSignIn<T extends object>(
  document: T,
  docs: ProviderDocsSettings,
  metadata: ProviderMetadata | undefined,
): T {
  const endpoints = flowEndpoints(metadata);
  if (endpoints === undefined) return document;
  const openapi = document as OpenApiDocument;
  openapi.components ??= {};
  openapi.components.securitySchemes = {
    ...openapi.components.securitySchemes,
    [PROVIDER_SECURITY_SCHEME]: {
      type: 'oauth2',
      description: 'Sign in with the identity provider (authorization code with PKCE)',
      flows: {
        authorizationCode: {
          ...endpoints,
          scopes: Object.fromEntries(docs.scopes.map((scope) => [scope, scope])),
        },
      },
    },
  };
  for (const operations of Object.values(openapi.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      if (operation.security?.some((requirement) => PASSWORD_SECURITY_SCHEME in requirement)) {
        operation.security = [...operation.security, { [PROVIDER_SECURITY_SCHEME]: [] }];
      }
    }
  }
  return document;
}

/**
 * /docs' Content-Security-Policy with the provider's token endpoint added to `connect-src`:
 * Swagger UI redeems the authorization code there from the page. The sign-in itself happens in a
 * window of the provider's own, which the policy does not govern.
 */
export function allowTokenEndpoint(csp: string, metadata: ProviderMetadata | undefined): string {
  const tokenUrl = flowEndpoints(metadata)?.tokenUrl;
  if (tokenUrl === undefined) return csp;
  const origin = new URL(tokenUrl).origin;
  return csp
    .split(';')
    .map((directive) => {
      const trimmed = directive.trim();
      return trimmed.startsWith('connect-src ') ? `${trimmed} ${origin}` : trimmed;
    })
    .join('; ');
}
