/**
 * The token login's security scheme in the OpenAPI document: FastAPI's name for it
 * (fastapi.security.OAuth2PasswordBearer), so the document reads as FastAPI's would. The
 * "Authorize" button of /docs posts the password form to /token and sends the token.
 */
export const PASSWORD_SECURITY_SCHEME = 'OAuth2PasswordBearer';

export const passwordSecurityScheme = {
  type: 'oauth2',
  flows: { password: { tokenUrl: '/token', scopes: {} } },
} as const;
