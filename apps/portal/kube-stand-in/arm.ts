/**
 * An Azure Resource Manager stand-in for Microsoft.Storage/storageAccounts, serving the simulated
 * Azure the Kubernetes stand-in's provider writes to: GET, LIST (the subscription's or one resource
 * group's, paged with nextLink), PATCH and PUT, the subscription's checkNameAvailability (names are
 * global: takeNameElsewhere marks one held outside the subscription), with ARM's error bodies (404 ResourceNotFound, 401
 * without the token), and switchable faults (429 with Retry-After, 5xx). Served over https with a
 * certificate from the stand-in's throwaway authority.
 *
 * It also answers the managed-identity token request of App Service and Azure Arc
 * (IDENTITY_ENDPOINT / IDENTITY_HEADER), so @azure/identity's DefaultAzureCredential works against
 * it unchanged: the token it hands out is the one static token this stand-in accepts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import { checkNameAvailability } from './arm-name-check.js';
import type { SimulatedAzure } from './azure.js';
import type { CertificateAuthority } from './certificates.js';
import { isRecord } from './validation.js';

export interface ArmFaults {
  /** Answer 429 with this Retry-After (seconds); `remaining` counts down, absent means until cleared. */
  throttle: { retryAfterSeconds: number; remaining?: number } | null;
  /** Answer this 5xx; `remaining` counts down, absent means until cleared. */
  serverError: { status: number; remaining?: number } | null;
}

export interface ArmRequest {
  method: string;
  path: string;
  query: string;
  status: number;
}

export interface ArmStandIn {
  /** https://host:port: the endpoint clients use instead of https://management.azure.com */
  readonly url: string;
  readonly port: number;
  /** The bearer token requests must carry. */
  readonly token: string;
  /** IDENTITY_ENDPOINT for the managed-identity credential. */
  readonly identityEndpoint: string;
  /** IDENTITY_HEADER: the secret the managed-identity token request must carry. */
  readonly identityHeader: string;
  readonly subscriptionId: string;
  /** Azure now reports this name taken (held in another subscription), though this one never lists it. */
  takeNameElsewhere(name: string): void;
  setFaults(faults: Partial<ArmFaults>): void;
  clearFaults(): void;
  faults(): ArmFaults;
  requests(): ArmRequest[];
  close(): Promise<void>;
}

export interface ArmStandInOptions {
  azure: SimulatedAzure;
  authority: CertificateAuthority;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /** Accounts per page of a list; more make a nextLink. */
  pageSize?: number;
  log?: (line: string) => void;
}

export const DEFAULT_ARM_PAGE_SIZE = 100;
const CONTROL_PREFIX = '/__arm-stand-in/';
const IDENTITY_PATH = '/msi/token';
const ACCOUNTS_PROVIDER = ['providers', 'microsoft.storage', 'storageaccounts'];
const MAX_BODY_BYTES = 1024 * 1024;

class ArmError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function noFaults(): ArmFaults {
  return { throttle: null, serverError: null };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ArmError(413, 'RequestEntityTooLarge', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) return parsed;
  } catch {
    // answered below
  }
  throw new ArmError(400, 'InvalidRequestContent', 'The request content was invalid and could not be deserialized.');
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'x-ms-request-id': randomUUID(),
    'x-ms-correlation-request-id': randomUUID(),
    ...headers,
  });
  res.end(text);
}

const notFound = (resourceGroup: string, name: string) =>
  new ArmError(
    404,
    'ResourceNotFound',
    `The Resource 'Microsoft.Storage/storageAccounts/${name}' under resource group '${resourceGroup}' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix`,
  );

export async function startArmStandIn(options: ArmStandInOptions): Promise<ArmStandIn> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(24).toString('base64url');
  const identityHeader = randomBytes(16).toString('hex');
  const pageSize = options.pageSize ?? DEFAULT_ARM_PAGE_SIZE;
  const { azure } = options;
  const subscriptionId = azure.subscriptionId;
  const log = options.log ?? (() => undefined);
  let faults = noFaults();
  const requests: ArmRequest[] = [];
  const sockets = new Set<Duplex>();
  let baseUrl = '';

  /** A fault applies to ARM calls only, never to the token request or the control API. */
  function injectedFault(): ArmError | undefined {
    const { throttle, serverError } = faults;
    if (throttle) {
      if (throttle.remaining !== undefined) {
        faults = {
          ...faults,
          throttle: throttle.remaining > 1 ? { ...throttle, remaining: throttle.remaining - 1 } : null,
        };
      }
      return new ArmError(
        429,
        'TooManyRequests',
        'The request is being throttled as the limit has been reached for operation type - Read_ObservationCount_60.',
        { 'Retry-After': String(throttle.retryAfterSeconds) },
      );
    }
    if (serverError) {
      if (serverError.remaining !== undefined) {
        faults = {
          ...faults,
          serverError: serverError.remaining > 1 ? { ...serverError, remaining: serverError.remaining - 1 } : null,
        };
      }
      return new ArmError(serverError.status, 'InternalServerError', 'Encountered internal server error.');
    }
    return undefined;
  }

  function page(url: URL, items: unknown[]): { value: unknown[]; nextLink?: string } {
    const skip = Number(url.searchParams.get('$skipToken') ?? '0');
    const start = Number.isInteger(skip) && skip > 0 ? skip : 0;
    const value = items.slice(start, start + pageSize);
    if (start + pageSize >= items.length) return { value };
    const next = new URL(url.pathname, baseUrl);
    next.searchParams.set('api-version', url.searchParams.get('api-version') ?? '');
    next.searchParams.set('$skipToken', String(start + pageSize));
    return { value, nextLink: next.toString() };
  }

  async function arm(req: IncomingMessage, url: URL): Promise<{ status: number; body: unknown }> {
    if (req.headers.authorization !== `Bearer ${token}`) {
      throw new ArmError(
        401,
        'AuthenticationFailed',
        'Authentication failed. The Authorization header is missing or invalid.',
        {
          'WWW-Authenticate':
            'Bearer authorization_uri="https://login.microsoftonline.com/common", error="invalid_token"',
        },
      );
    }
    if (!url.searchParams.get('api-version')) {
      throw new ArmError(
        400,
        'MissingApiVersionParameter',
        'The api-version query parameter (?api-version=) is required for all requests.',
      );
    }
    const fault = injectedFault();
    if (fault) throw fault;
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const lower = segments.map((segment) => segment.toLowerCase());
    if (lower[0] !== 'subscriptions' || segments[1] === undefined) {
      throw new ArmError(404, 'InvalidResourceType', `No route for ${url.pathname}`);
    }
    if (segments[1] !== subscriptionId) {
      throw new ArmError(404, 'SubscriptionNotFound', `The subscription '${segments[1]}' could not be found.`);
    }
    const method = req.method ?? 'GET';
    // /subscriptions/{s}/providers/Microsoft.Storage/checkNameAvailability
    if (lower.length === 5 && lower.slice(2).join('/') === 'providers/microsoft.storage/checknameavailability') {
      if (method !== 'POST') throw new ArmError(405, 'MethodNotAllowed', `${method} is not supported here.`);
      const answer = checkNameAvailability(azure, await readJson(req));
      if (!answer) throw new ArmError(400, 'InvalidRequestContent', 'The request content was invalid.');
      return { status: 200, body: answer };
    }
    const at = (offset: number) => lower.slice(offset, offset + 3).join('/') === ACCOUNTS_PROVIDER.join('/');
    // /subscriptions/{s}/providers/Microsoft.Storage/storageAccounts
    if (lower.length === 5 && at(2)) {
      if (method !== 'GET') throw new ArmError(405, 'MethodNotAllowed', `${method} is not supported here.`);
      return { status: 200, body: page(url, azure.list()) };
    }
    if (lower[2] !== 'resourcegroups' || segments[3] === undefined || !at(4)) {
      throw new ArmError(404, 'InvalidResourceType', `No route for ${url.pathname}`);
    }
    const resourceGroup = segments[3];
    // /subscriptions/{s}/resourceGroups/{g}/providers/Microsoft.Storage/storageAccounts
    if (lower.length === 7) {
      if (method !== 'GET') throw new ArmError(405, 'MethodNotAllowed', `${method} is not supported here.`);
      return { status: 200, body: page(url, azure.list(resourceGroup)) };
    }
    const name = segments[7];
    if (lower.length !== 8 || name === undefined)
      throw new ArmError(404, 'InvalidResourceType', `No route for ${url.pathname}`);
    const existing = azure.get(name);
    const inGroup = existing && existing.id.toLowerCase().includes(`/resourcegroups/${resourceGroup.toLowerCase()}/`);
    switch (method) {
      case 'GET':
        if (!inGroup) throw notFound(resourceGroup, name);
        return { status: 200, body: existing };
      case 'PATCH': {
        if (!inGroup) throw notFound(resourceGroup, name);
        return { status: 200, body: azure.patch(name, await readJson(req)) };
      }
      case 'PUT': {
        if (existing && !inGroup) {
          throw new ArmError(409, 'StorageAccountAlreadyTaken', `The storage account named ${name} is already taken.`);
        }
        const body = await readJson(req);
        return { status: 200, body: existing ? azure.patch(name, body) : azure.put(resourceGroup, name, body) };
      }
      case 'DELETE':
        return { status: azure.delete(name) ? 200 : 204, body: {} };
      default:
        throw new ArmError(405, 'MethodNotAllowed', `${method} is not supported here.`);
    }
  }

  /** App Service / Arc managed identity (api-version 2019-08-01): the static token, for any resource. */
  function identityToken(req: IncomingMessage, url: URL): { status: number; body: unknown } {
    if (req.headers['x-identity-header'] !== identityHeader) {
      throw new ArmError(401, 'Unauthorized', 'The X-IDENTITY-HEADER header is missing or wrong.');
    }
    const resource =
      url.searchParams.get('resource') ?? url.searchParams.get('scope') ?? 'https://management.azure.com/';
    return {
      status: 200,
      body: {
        access_token: token,
        expires_on: String(Math.floor(Date.now() / 1000) + 3600),
        resource,
        token_type: 'Bearer',
        client_id: '00000000-0000-4000-8000-00000000a11d',
      },
    };
  }

  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const topic = url.pathname.slice(CONTROL_PREFIX.length);
    if (topic === 'faults' && req.method === 'DELETE') {
      faults = noFaults();
      return send(res, 200, { faults });
    }
    if (topic === 'faults' && req.method === 'PUT') {
      const input = await readJson(req);
      const throttle = input['throttle'];
      const serverError = input['serverError'];
      faults = {
        throttle: isRecord(throttle)
          ? {
              retryAfterSeconds: typeof throttle['retryAfterSeconds'] === 'number' ? throttle['retryAfterSeconds'] : 1,
              ...(typeof throttle['remaining'] === 'number' ? { remaining: throttle['remaining'] } : {}),
            }
          : throttle === null
            ? null
            : faults.throttle,
        serverError: isRecord(serverError)
          ? {
              status: typeof serverError['status'] === 'number' ? serverError['status'] : 500,
              ...(typeof serverError['remaining'] === 'number' ? { remaining: serverError['remaining'] } : {}),
            }
          : serverError === null
            ? null
            : faults.serverError,
      };
      return send(res, 200, { faults });
    }
    if (topic === 'taken-names' && req.method === 'PUT') {
      const names = (await readJson(req))['names'];
      if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) {
        return send(res, 400, { error: 'body must be {"names": ["..."]}' });
      }
      for (const name of names) azure.takeNameElsewhere(name);
      return send(res, 200, { names });
    }
    if (topic === 'state' && req.method === 'GET') {
      return send(res, 200, { faults, subscriptionId, accounts: azure.list().length });
    }
    send(res, 404, { error: 'unknown control route' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://arm-stand-in');
    if (url.pathname.startsWith(CONTROL_PREFIX)) return control(req, res, url);
    let status: number;
    try {
      const answer = url.pathname === IDENTITY_PATH ? identityToken(req, url) : await arm(req, url);
      status = answer.status;
      send(res, answer.status, answer.body);
    } catch (error) {
      const known =
        error instanceof ArmError
          ? error
          : new ArmError(500, 'InternalServerError', 'Encountered internal server error.');
      if (!(error instanceof ArmError)) log(`ARM stand-in bug on ${req.method} ${url.pathname}: ${String(error)}`);
      status = known.status;
      send(res, known.status, { error: { code: known.code, message: known.message } }, known.headers);
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.search, status });
    log(`${req.method} ${url.pathname}${url.search} ${status}`);
  }

  const tls = await options.authority.issue([host], 'management.azure.stand-in');
  const server: Server = createServer({ cert: tls.certificate, key: tls.privateKey }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`ARM stand-in could not answer: ${String(error)}`);
      if (!res.headersSent) send(res, 500, { error: { code: 'InternalServerError', message: 'stand-in failure' } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  baseUrl = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: baseUrl,
    port,
    token,
    identityEndpoint: `${baseUrl}${IDENTITY_PATH}`,
    identityHeader,
    subscriptionId,
    takeNameElsewhere: (name) => azure.takeNameElsewhere(name),
    setFaults(next) {
      faults = { ...faults, ...next };
    },
    clearFaults() {
      faults = noFaults();
    },
    faults: () => structuredClone(faults),
    requests: () => [...requests],
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
