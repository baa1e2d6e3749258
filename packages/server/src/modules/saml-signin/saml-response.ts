import { SignedXml } from 'xml-crypto';
import { parseXmlDocument, type XmlDocument, type XmlElement } from '../../xml/xml-dom';

/**
 * Validates a SAML 2.0 Response (HTTP-POST binding) on our own terms. node-saml 5 was tried
 * as the core and accepted a wrong Recipient and a replayed response, and it checks time on
 * the system clock; so every rule is here, on XML that xml-crypto proved signed:
 * - the signature (on the Response or the Assertion) must verify under one of the
 *   connection's certificates (never a KeyInfo certificate), with one Reference naming the
 *   element it sits in, SHA-256 or SHA-512 only;
 * - every value is read from the canonical XML xml-crypto returns for that reference, never
 *   from the original document, so a wrapped or moved element is not the one read;
 * - exactly one Assertion anywhere in the document, no EncryptedAssertion, no DTD;
 * - issuer, audience, recipient, destination and time windows as the service expects.
 * Every failure throws {@link SamlRefusal} with a precise reason for the log (never the XML).
 */

const NS = {
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_FORMATS = new Set([
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
]);
const SIGNATURE_ALGORITHMS = [
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
] as const;
const DIGEST_ALGORITHMS = [
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmlenc#sha512',
] as const;
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** A response we refuse; `reason` goes to the log, the user sees a generic error. */
export class SamlRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SamlRefusal';
  }
}

const refuse = (reason: string): never => {
  throw new SamlRefusal(reason);
};

/** What the service expects of a response to one connection. */
export type SamlExpectations = {
  idpEntityId: string;
  /** PEM certificates the IdP may sign with. */
  certificates: string[];
  spEntityId: string;
  acsUrl: string;
  now: Date;
  skewMs: number;
};

/** The values of a validated response, all read from signed XML. */
export type ValidatedResponse = {
  assertionId: string;
  /** Lower-cased e-mail address. */
  nameId: string;
  /** The AuthnRequest this answers (from the signed SubjectConfirmationData). */
  inResponseTo: string;
  /** Until when the assertion could be presented: its ID is kept until then. */
  expiresAt: Date;
  attributes: Record<string, string>;
};

/** Base64 (whitespace allowed, as IdPs wrap lines) to UTF-8 XML, refusing DTDs before any parser sees them. */
export function decodeSamlResponse(encoded: string): string {
  const compact = encoded.replace(/[\r\n\t ]/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    refuse('SAMLResponse is not base64');
  }
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  // No SAML message has a document type; refusing it stops entity expansion and external entities.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) refuse('document type declaration');
  if (!xml.trimStart().startsWith('<')) refuse('not XML');
  return xml;
}

function parseXml(xml: string, what: string): XmlDocument & { documentElement: XmlElement } {
  const fail = (message: string) => refuse(`${what} is not well-formed XML: ${String(message).slice(0, 120)}`);
  const doc = parseXmlDocument(xml, fail);
  if (!doc?.documentElement) return refuse(`${what} has no root element`);
  return doc as XmlDocument & { documentElement: XmlElement };
}

function childElements(parent: XmlElement, ns: string, localName: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1) {
      const el = node as XmlElement;
      if (el.namespaceURI === ns && el.localName === localName) found.push(el);
    }
  }
  return found;
}

function oneChild(parent: XmlElement, ns: string, localName: string, what: string): XmlElement {
  const found = childElements(parent, ns, localName);
  if (found.length !== 1) refuse(`${what}: expected one ${localName}, found ${found.length}`);
  return found[0]!;
}

function optionalChild(parent: XmlElement, ns: string, localName: string, what: string): XmlElement | undefined {
  const found = childElements(parent, ns, localName);
  if (found.length > 1) refuse(`${what}: more than one ${localName}`);
  return found[0];
}

/** The element's text, refusing comments, processing instructions and child elements (NameID injection). */
function plainText(el: XmlElement, what: string): string {
  let text = '';
  for (let node = el.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 3 && node.nodeType !== 4) refuse(`${what} contains markup (node type ${node.nodeType})`);
    text += node.nodeValue ?? '';
  }
  return text.trim();
}

function instant(value: string | null, what: string): Date | null {
  if (value === null || value === '') return null;
  const at = new Date(value);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value) || Number.isNaN(at.getTime())) {
    refuse(`${what} is not a UTC instant`);
  }
  return at;
}

function checkWindow(notBefore: Date | null, notOnOrAfter: Date | null, exp: SamlExpectations, what: string): void {
  const now = exp.now.getTime();
  if (notBefore && now + exp.skewMs < notBefore.getTime()) refuse(`${what} not yet valid`);
  if (notOnOrAfter && now - exp.skewMs >= notOnOrAfter.getTime()) refuse(`${what} expired`);
}

/**
 * Verifies the signature that is a direct child of `element`, if any. Returns the canonical
 * XML of the signed element, null when it carries no signature; refuses a bad one.
 */
function signedXmlOf(xml: string, element: XmlElement, certificates: string[], what: string): string | null {
  const signatures = childElements(element, NS.ds, 'Signature');
  if (signatures.length === 0) return null;
  if (signatures.length > 1) refuse(`${what}: more than one signature`);
  const signature = signatures[0]!;
  const id = element.getAttribute('ID');
  if (!id) refuse(`${what}: signed element has no ID`);
  const signedInfo = oneChild(signature, NS.ds, 'SignedInfo', `${what} signature`);
  const references = childElements(signedInfo, NS.ds, 'Reference');
  // The one reference must be the element the signature sits in: a signature over another
  // element (moved or wrapped) proves nothing about this one.
  if (references.length !== 1 || references[0]!.getAttribute('URI') !== `#${id}`) {
    refuse(`${what}: signature does not reference its own element`);
  }
  let lastError = 'no certificate';
  for (const publicCert of certificates) {
    const verifier = new SignedXml({ publicCert });
    // Only strong algorithms; xml-crypto throws on any other named in the signature.
    verifier.SignatureAlgorithms = Object.fromEntries(
      SIGNATURE_ALGORITHMS.map((a) => [a, verifier.SignatureAlgorithms[a]]),
    ) as SignedXml['SignatureAlgorithms'];
    verifier.HashAlgorithms = Object.fromEntries(
      DIGEST_ALGORITHMS.map((a) => [a, verifier.HashAlgorithms[a]]),
    ) as SignedXml['HashAlgorithms'];
    try {
      verifier.loadSignature(signature);
      if (verifier.checkSignature(xml)) {
        const signed = verifier.getSignedReferences();
        if (signed.length === 1 && signed[0]) return signed[0];
      }
      lastError = 'signature value does not verify';
    } catch (error) {
      lastError = error instanceof Error ? error.message.slice(0, 160) : 'verification failed';
    }
  }
  return refuse(`${what}: invalid signature (${lastError})`);
}

function issuerOf(parent: XmlElement, what: string, required: boolean): string | null {
  const issuer = optionalChild(parent, NS.saml, 'Issuer', what);
  if (!issuer) return required ? refuse(`${what}: no Issuer`) : null;
  const format = issuer.getAttribute('Format');
  if (format && format !== 'urn:oasis:names:tc:SAML:2.0:nameid-format:entity') refuse(`${what}: Issuer format`);
  return plainText(issuer, `${what} Issuer`);
}

/** Validates a decoded Response for one connection. @throws SamlRefusal */
export function validateSamlResponse(xml: string, exp: SamlExpectations): ValidatedResponse {
  const doc = parseXml(xml, 'response');
  const root = doc.documentElement;
  if (root.namespaceURI !== NS.samlp || root.localName !== 'Response') refuse('root is not a samlp:Response');
  if (root.getAttribute('Version') !== '2.0') refuse('response version');
  if (doc.getElementsByTagNameNS(NS.saml, 'EncryptedAssertion').length > 0) refuse('encrypted assertion');
  // One assertion in the whole document: a second one, wherever it hides, is a wrapping attempt.
  const allAssertions = doc.getElementsByTagNameNS(NS.saml, 'Assertion');
  if (allAssertions.length !== 1) refuse(`expected one Assertion in the document, found ${allAssertions.length}`);
  const rawAssertion = oneChild(root, NS.saml, 'Assertion', 'response');
  if (doc.getElementsByTagNameNS(NS.ds, 'Signature').length > 2) refuse('too many signatures');

  const signedResponseXml = signedXmlOf(xml, root, exp.certificates, 'response');
  const signedAssertionXml = signedXmlOf(xml, rawAssertion, exp.certificates, 'assertion');
  if (!signedResponseXml && !signedAssertionXml) refuse('neither the response nor the assertion is signed');

  // Read the response's own fields from its signed form when it is signed.
  const response = signedResponseXml ? parseXml(signedResponseXml, 'signed response').documentElement : root;
  if (response.namespaceURI !== NS.samlp || response.localName !== 'Response')
    refuse('signed element is not the response');
  let assertion: XmlElement;
  if (signedAssertionXml) {
    assertion = parseXml(signedAssertionXml, 'signed assertion').documentElement;
  } else {
    assertion = oneChild(response, NS.saml, 'Assertion', 'signed response');
  }
  if (assertion.namespaceURI !== NS.saml || assertion.localName !== 'Assertion')
    refuse('signed element is not the assertion');
  const assertionId = assertion.getAttribute('ID') ?? '';
  if (!assertionId || assertionId !== rawAssertion.getAttribute('ID'))
    refuse('signed assertion is not the one in the response');
  if (assertion.getAttribute('Version') !== '2.0') refuse('assertion version');

  // Response: status, destination, issuer, InResponseTo.
  const status = oneChild(response, NS.samlp, 'Status', 'response');
  const code = oneChild(status, NS.samlp, 'StatusCode', 'status');
  if (code.getAttribute('Value') !== SUCCESS) refuse(`status ${code.getAttribute('Value') ?? '?'}`);
  const destination = response.getAttribute('Destination');
  if (destination && destination !== exp.acsUrl) refuse('destination is not our ACS URL');
  const responseIssuer = issuerOf(response, 'response', false);
  if (responseIssuer !== null && responseIssuer !== exp.idpEntityId) refuse('response issuer is not the IdP');

  // Assertion: issuer, subject, conditions, authentication.
  if (issuerOf(assertion, 'assertion', true) !== exp.idpEntityId) refuse('assertion issuer is not the IdP');
  const subject = oneChild(assertion, NS.saml, 'Subject', 'assertion');
  const nameIdEl = oneChild(subject, NS.saml, 'NameID', 'subject');
  // Also in the original document: exclusive c14n drops comments, so only there would one show.
  const rawNameId = oneChild(oneChild(rawAssertion, NS.saml, 'Subject', 'assertion'), NS.saml, 'NameID', 'subject');
  plainText(rawNameId, 'NameID');
  const format = nameIdEl.getAttribute('Format');
  if (format && !EMAIL_FORMATS.has(format)) refuse(`NameID format ${format}`);
  const nameId = plainText(nameIdEl, 'NameID').toLowerCase();
  if (nameId.length > 254 || !EMAIL.test(nameId)) refuse('NameID is not an e-mail address');

  const confirmations = childElements(subject, NS.saml, 'SubjectConfirmation').filter(
    (c) => c.getAttribute('Method') === BEARER,
  );
  if (confirmations.length !== 1) refuse(`expected one bearer SubjectConfirmation, found ${confirmations.length}`);
  const data = oneChild(confirmations[0]!, NS.saml, 'SubjectConfirmationData', 'subject confirmation');
  if (data.getAttribute('Recipient') !== exp.acsUrl) refuse('recipient is not our ACS URL');
  const dataNotOnOrAfter = instant(data.getAttribute('NotOnOrAfter'), 'SubjectConfirmationData NotOnOrAfter');
  if (!dataNotOnOrAfter) refuse('SubjectConfirmationData has no NotOnOrAfter');
  checkWindow(instant(data.getAttribute('NotBefore'), 'NotBefore'), dataNotOnOrAfter, exp, 'subject confirmation');
  const inResponseTo = data.getAttribute('InResponseTo') ?? '';
  if (!inResponseTo) refuse('unsolicited response (no InResponseTo)');
  const responseInResponseTo = response.getAttribute('InResponseTo');
  if (responseInResponseTo && responseInResponseTo !== inResponseTo) refuse('InResponseTo differs');

  const conditions = oneChild(assertion, NS.saml, 'Conditions', 'assertion');
  const notOnOrAfter = instant(conditions.getAttribute('NotOnOrAfter'), 'Conditions NotOnOrAfter');
  checkWindow(instant(conditions.getAttribute('NotBefore'), 'Conditions NotBefore'), notOnOrAfter, exp, 'conditions');
  const restrictions = childElements(conditions, NS.saml, 'AudienceRestriction');
  if (restrictions.length === 0) refuse('no AudienceRestriction');
  for (const restriction of restrictions) {
    const audiences = childElements(restriction, NS.saml, 'Audience').map((a) => plainText(a, 'Audience'));
    if (!audiences.includes(exp.spEntityId)) refuse('audience is not our SP entity ID');
  }
  if (childElements(assertion, NS.saml, 'AuthnStatement').length === 0) refuse('no AuthnStatement');

  const attributes: Record<string, string> = {};
  for (const statement of childElements(assertion, NS.saml, 'AttributeStatement')) {
    for (const attribute of childElements(statement, NS.saml, 'Attribute')) {
      const name = attribute.getAttribute('Name');
      const value = childElements(attribute, NS.saml, 'AttributeValue')[0];
      if (name && value) attributes[name] = (value.textContent ?? '').trim().slice(0, 200);
    }
  }

  const ends = [dataNotOnOrAfter, notOnOrAfter].filter((d): d is Date => d !== null).map((d) => d.getTime());
  const expiresAt = new Date(Math.max(Math.min(...ends), exp.now.getTime()) + exp.skewMs);
  return { assertionId, nameId, inResponseTo, expiresAt, attributes };
}
