import { X509Certificate } from 'node:crypto';
import { parseXmlDocument, type XmlElement } from '../../xml/xml-dom';
import { CONNECTION_TEXTS, IDP_METADATA_MAX_BYTES, ZIdpUrl } from '@patchwell/core/sso/connections.schema';

/**
 * Reading what Patchwell needs of an identity provider: its entity ID, its sign-in URL
 * (SingleSignOnService, HTTP-Redirect binding) and the certificates it signs with, from
 * its SAML metadata or from fields typed in. Pure: no I/O, nothing stored.
 */

export type IdpDescription = { entityId: string; ssoUrl: string; certificates: string[] };
/** A problem with the input, as the message to show on `field`. */
export type IdpProblem = { field: 'metadata_xml' | 'certificate' | 'sso_url'; message: string };
export type IdpResult = { ok: true; idp: IdpDescription } | { ok: false; problem: IdpProblem };

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** Certificates from one metadata document (more is a sign of the wrong document). */
const CERTIFICATES_MAX = 10;

/**
 * One X.509 certificate as PEM, normalised, or null when `text` is not exactly one
 * certificate that node:crypto can read.
 */
export function normalisePem(text: string): string | null {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  if (blocks?.length !== 1 || text.replace(blocks[0], '').trim() !== '') return null;
  try {
    return new X509Certificate(blocks[0]).toString();
  } catch {
    return null;
  }
}

/** The base64 DER of a metadata `X509Certificate` element as PEM, or null when it is not one. */
function pemOfBase64(b64: string): string | null {
  const clean = b64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(clean)) return null;
  try {
    return new X509Certificate(Buffer.from(clean, 'base64')).toString();
  } catch {
    return null;
  }
}

const fail = (field: IdpProblem['field'], message: string): IdpResult => ({ ok: false, problem: { field, message } });
const metadataFail = (problem: string) => fail('metadata_xml', CONNECTION_TEXTS.metadataInvalid(problem));

const childrenNS = (parent: XmlElement, localName: string): XmlElement[] =>
  Array.from(parent.getElementsByTagNameNS(MD, localName));

/** The IdP described by `xml`, a SAML 2.0 EntityDescriptor (or an EntitiesDescriptor holding one IdP). */
export function parseIdpMetadata(xml: string): IdpResult {
  if (Buffer.byteLength(xml, 'utf8') > IDP_METADATA_MAX_BYTES)
    return fail('metadata_xml', CONNECTION_TEXTS.metadataTooLarge);
  // A DTD can declare entities that expand without end or read files: metadata never needs one.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return metadataFail('it must not contain a DOCTYPE or entity declarations.');
  const problems: string[] = [];
  const note = (msg: unknown) =>
    problems.push(
      String(msg)
        .split('\n')[0]!
        .replace(/^\[xmldom [^\]]*\]\s*/, ''),
    );
  const doc = parseXmlDocument(xml, note);
  if (problems.length || !doc?.documentElement)
    return metadataFail(`it is not well-formed XML (${problems[0] ?? 'empty'}).`);
  const root = doc.documentElement;
  if (root.namespaceURI !== MD || !['EntityDescriptor', 'EntitiesDescriptor'].includes(root.localName)) {
    return metadataFail('the document is not SAML 2.0 metadata (an md:EntityDescriptor).');
  }
  const entities = (root.localName === 'EntityDescriptor' ? [root] : childrenNS(root, 'EntityDescriptor')).filter(
    (e) => childrenNS(e, 'IDPSSODescriptor').length > 0,
  );
  if (entities.length === 0) return metadataFail('it describes no identity provider (no IDPSSODescriptor).');
  if (entities.length > 1) return metadataFail('it describes several identity providers; paste the metadata of one.');
  const entity = entities[0]!;
  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) return metadataFail('the EntityDescriptor has no entityID.');
  if (entityId.length > 1024) return metadataFail('the entityID is too long.');
  const idp = childrenNS(entity, 'IDPSSODescriptor')[0]!;

  const sso = childrenNS(idp, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === REDIRECT_BINDING);
  const ssoUrl = sso?.getAttribute('Location')?.trim();
  if (!ssoUrl) return metadataFail('it has no SingleSignOnService with the HTTP-Redirect binding.');
  if (!ZIdpUrl.safeParse(ssoUrl).success) {
    return metadataFail(`the SingleSignOnService location is not usable: ${CONNECTION_TEXTS.urlInvalid}`);
  }

  const certificates: string[] = [];
  for (const key of childrenNS(idp, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const el of Array.from(key.getElementsByTagNameNS(DS, 'X509Certificate'))) {
      const pem = pemOfBase64(el.textContent ?? '');
      if (!pem) return metadataFail('a signing X509Certificate is not a valid certificate.');
      if (!certificates.includes(pem)) certificates.push(pem);
    }
  }
  if (certificates.length === 0)
    return metadataFail('it has no signing certificate (KeyDescriptor with X509Certificate).');
  if (certificates.length > CERTIFICATES_MAX) return metadataFail('it lists too many signing certificates.');
  return { ok: true, idp: { entityId, ssoUrl, certificates } };
}

/** The IdP described by fields: one PEM certificate, a sign-in URL and an entity ID. */
export function idpFromFields(fields: { certificate: string; sso_url: string; entity_id: string }): IdpResult {
  const pem = normalisePem(fields.certificate);
  if (!pem) return fail('certificate', CONNECTION_TEXTS.certificateInvalid);
  if (!ZIdpUrl.safeParse(fields.sso_url).success) return fail('sso_url', CONNECTION_TEXTS.urlInvalid);
  return { ok: true, idp: { entityId: fields.entity_id, ssoUrl: fields.sso_url, certificates: [pem] } };
}

/** What the console shows of a certificate. */
export function certificateInfo(pem: string) {
  const cert = new X509Certificate(pem);
  return {
    pem,
    subject: cert.subject.replace(/\n/g, ', '),
    not_after: new Date(cert.validTo).toISOString(),
    fingerprint_sha256: cert.fingerprint256,
  };
}
