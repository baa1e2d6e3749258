import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A test identity provider's certificate (made here with openssl, as in STACK.md) and its
 * SAML metadata, for the connection tests.
 */

/** A fresh self-signed certificate, PEM, for `cn`. */
export function makeCertificate(cn: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-idp-'));
  try {
    const key = path.join(dir, 'idp.key');
    const crt = path.join(dir, 'idp.crt');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        crt,
        '-days',
        '30',
        '-subj',
        `/CN=${cn}`,
      ],
      { stdio: 'ignore' },
    );
    return readFileSync(crt, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The base64 DER inside a PEM, as metadata carries it. */
export const derOf = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');

/** IdP metadata: an EntityDescriptor with an IDPSSODescriptor, a signing key and both SSO bindings. */
export function idpMetadata(options: {
  entityId: string;
  ssoUrl: string;
  certificates: string[];
  /** An encryption key as well, which must be ignored. */
  encryption?: string;
}): string {
  const keys = options.certificates
    .map(
      (pem) => `
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>
${derOf(pem)}
      </ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>`,
    )
    .join('');
  const encryption = options.encryption
    ? `
    <md:KeyDescriptor use="encryption">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${derOf(options.encryption)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>`
    : '';
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${options.entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}${encryption}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${options.ssoUrl}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${options.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
}
