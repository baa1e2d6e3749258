import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/**
 * A test identity provider on xml-crypto: it writes SAML Responses the way an IdP does and
 * signs them with a key and certificate made at test time (openssl), so every attack in the
 * corpus starts from a response that would otherwise be accepted.
 */

export type KeyPair = { privateKey: string; certificate: string };

/** A fresh RSA key and self-signed certificate. */
export function makeKeyPair(commonName = 'idp.patchwell.test'): KeyPair {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-saml-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-days', '3650'].concat([
        '-subj',
        `/CN=${commonName}`,
      ]),
      { cwd: dir, stdio: 'ignore' },
    );
    return {
      privateKey: readFileSync(path.join(dir, 'k.pem'), 'utf8'),
      certificate: readFileSync(path.join(dir, 'c.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const SAML_NS = {
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
};

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

export const newId = () => `_${randomBytes(16).toString('hex')}`;

export type AssertionFields = {
  id: string;
  issuer: string;
  /** Inner XML of NameID (the address, or markup for injection attacks). */
  nameIdXml: string;
  audience: string;
  recipient: string;
  inResponseTo: string | null;
  issuedAt: Date;
  notBefore: Date;
  notOnOrAfter: Date;
};

export function assertionXml(f: AssertionFields): string {
  const irt = f.inResponseTo === null ? '' : ` InResponseTo="${f.inResponseTo}"`;
  return (
    `<saml:Assertion xmlns:saml="${SAML_NS.saml}" ID="${f.id}" Version="2.0" IssueInstant="${f.issuedAt.toISOString()}">` +
    `<saml:Issuer>${f.issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${f.nameIdXml}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${f.notOnOrAfter.toISOString()}" Recipient="${f.recipient}"${irt}/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${f.notBefore.toISOString()}" NotOnOrAfter="${f.notOnOrAfter.toISOString()}">` +
    `<saml:AudienceRestriction><saml:Audience>${f.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${f.issuedAt.toISOString()}" SessionIndex="${f.id}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="firstname"><saml:AttributeValue>Alice</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion>`
  );
}

export type ResponseFields = {
  id: string;
  issuer: string | null;
  destination: string | null;
  inResponseTo: string | null;
  issuedAt: Date;
  status?: string;
  /** Inner XML placed after Status: the assertion(s), or whatever an attack puts there. */
  body: string;
  /** Inner XML placed before Status (Extensions, for wrapping attacks). */
  before?: string;
};

export function responseXml(f: ResponseFields): string {
  const attrs =
    (f.destination === null ? '' : ` Destination="${f.destination}"`) +
    (f.inResponseTo === null ? '' : ` InResponseTo="${f.inResponseTo}"`);
  const issuer = f.issuer === null ? '' : `<saml:Issuer>${f.issuer}</saml:Issuer>`;
  const status = f.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success';
  return (
    `<samlp:Response xmlns:samlp="${SAML_NS.samlp}" xmlns:saml="${SAML_NS.saml}" ID="${f.id}" Version="2.0" IssueInstant="${f.issuedAt.toISOString()}"${attrs}>` +
    issuer +
    (f.before ?? '') +
    `<samlp:Status><samlp:StatusCode Value="${status}"/></samlp:Status>` +
    f.body +
    `</samlp:Response>`
  );
}

/**
 * Signs the element with `ID="id"` (enveloped, exc-c14n, RSA-SHA256 unless told), placing the
 * signature after its Issuer as SAML requires.
 */
export function signElement(
  xml: string,
  id: string,
  keys: KeyPair,
  options: { signatureAlgorithm?: string; digestAlgorithm?: string } = {},
): string {
  const signer = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: (options.signatureAlgorithm ?? RSA_SHA256) as typeof RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  signer.addReference({
    xpath: `//*[@ID='${id}']`,
    transforms: [ENVELOPED, EXC_C14N],
    digestAlgorithm: (options.digestAlgorithm ??
      'http://www.w3.org/2001/04/xmlenc#sha256') as 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    location: { reference: `//*[@ID='${id}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

/** The ID of the AuthnRequest in a redirect to the IdP (HTTP-Redirect binding). */
export function authnRequestIdOf(location: string): string {
  const encoded = new URL(location).searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error('AuthnRequest without ID');
  return id;
}

export const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
