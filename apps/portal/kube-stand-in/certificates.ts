/**
 * The stand-in's TLS identity: a throwaway certificate authority made at start and a serving certificate
 * it signs for the addresses the stand-in answers on. Clients trust the authority through the kubeconfig's
 * certificate-authority-data, as they trust a cluster's CA. Keys never leave the process.
 */
import { randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

export interface ServingCertificates {
  /** PEM of the authority clients trust. */
  certificateAuthority: string;
  /** PEM of the serving certificate followed by nothing else: clients already hold the authority. */
  certificate: string;
  /** PKCS #8 PEM of the serving certificate's private key. */
  privateKey: string;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const VALIDITY_MS = 365 * 24 * 60 * 60 * 1000;
// Clocks of a client and the stand-in may differ a little; a certificate from the future is refused.
const BACKDATE_MS = 60 * 60 * 1000;

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** A positive serial number of 16 random bytes, as RFC 5280 asks (the top bit clear keeps it positive). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

function subjectAlternativeNames(hosts: readonly string[]): x509.JsonGeneralName[] {
  const names = new Set(['localhost', '127.0.0.1', '::1', ...hosts]);
  return [...names].map((host) => ({ type: isIP(host) ? 'ip' : 'dns', value: host }));
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
}

/** A throwaway certificate authority; several stand-ins (Kubernetes, ARM) may share one, so clients trust one file. */
export interface CertificateAuthority {
  /** PEM of the authority clients trust. */
  certificate: string;
  /** Signs serving certificates. */
  issue(hosts: readonly string[], commonName: string): Promise<ServingCertificates>;
}

export async function createCertificateAuthority(): Promise<CertificateAuthority> {
  const notBefore = new Date(Date.now() - BACKDATE_MS);
  const notAfter = new Date(Date.now() + VALIDITY_MS);
  const authorityKeys = await generateKeys();
  const authority = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: 'CN=kube-stand-in-ca',
    notBefore,
    notAfter,
    keys: authorityKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(authorityKeys.publicKey),
    ],
  });
  const certificateAuthority = authority.toString('pem');

  return {
    certificate: certificateAuthority,
    async issue(hosts, commonName) {
      const servingKeys = await generateKeys();
      const serving = await x509.X509CertificateGenerator.create({
        serialNumber: serialNumber(),
        subject: `CN=${commonName}`,
        issuer: authority.subject,
        notBefore,
        notAfter,
        publicKey: servingKeys.publicKey,
        signingKey: authorityKeys.privateKey,
        signingAlgorithm: ALGORITHM,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension(subjectAlternativeNames(hosts)),
          await x509.AuthorityKeyIdentifierExtension.create(authority),
          await x509.SubjectKeyIdentifierExtension.create(servingKeys.publicKey),
        ],
      });
      const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', servingKeys.privateKey);
      return {
        certificateAuthority,
        certificate: serving.toString('pem'),
        privateKey: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
      };
    },
  };
}

export async function createServingCertificates(hosts: readonly string[]): Promise<ServingCertificates> {
  return (await createCertificateAuthority()).issue(hosts, 'kube-apiserver');
}
