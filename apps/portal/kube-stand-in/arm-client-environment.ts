import type { StandIn } from './server.js';

/**
 * The environment a process needs to observe the ARM stand-in as it would Azure: the subscription
 * and the endpoint, the managed-identity endpoint DefaultAzureCredential takes its token from, and
 * the stand-in's authority as a file for Node to trust (NODE_EXTRA_CA_CERTS, read only at start, so
 * only a new process can be given it).
 */
export function armClientEnvironment(standIn: StandIn, caPath: string): Record<string, string> {
  return {
    PORTAL_AZURE_SUBSCRIPTION_ID: standIn.arm.subscriptionId,
    PORTAL_AZURE_ARM_ENDPOINT: standIn.arm.url,
    IDENTITY_ENDPOINT: standIn.arm.identityEndpoint,
    IDENTITY_HEADER: standIn.arm.identityHeader,
    NODE_EXTRA_CA_CERTS: caPath,
  };
}
