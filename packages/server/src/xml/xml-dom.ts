import { createRequire } from 'node:module';

/**
 * The part of the W3C DOM that SAML validation reads, over @xmldom/xmldom. Its typings (and
 * xpath's) reference the browser's DOM library, which would put `document`, `window` and a
 * stricter `Blob` into the whole server's compile; so the module is loaded untyped and this
 * subset declared here.
 */
export type XmlNode = {
  nodeType: number;
  nodeValue: string | null;
  textContent: string | null;
  firstChild: XmlNode | null;
  nextSibling: XmlNode | null;
};

export type XmlElement = XmlNode & {
  namespaceURI: string | null;
  localName: string;
  getAttribute(name: string): string | null;
  getElementsByTagNameNS(namespace: string, localName: string): ArrayLike<XmlElement>;
};

export type XmlDocument = {
  documentElement: XmlElement | null;
  getElementsByTagNameNS(namespace: string, localName: string): { length: number };
};

type ParserOptions = {
  locator: object;
  errorHandler: { warning(message: string): void; error(message: string): void; fatalError(message: string): void };
};

const xmldom = createRequire(import.meta.url)('@xmldom/xmldom') as {
  DOMParser: new (options: ParserOptions) => {
    parseFromString(xml: string, mimeType: string): XmlDocument | undefined;
  };
};

/**
 * Parses XML, calling `onError` on any error the parser reports: SAML validation throws there,
 * the IdP metadata reader collects the messages.
 */
export function parseXmlDocument(xml: string, onError: (message: string) => void): XmlDocument | undefined {
  const parser = new xmldom.DOMParser({
    locator: {},
    errorHandler: { warning: () => undefined, error: onError, fatalError: onError },
  });
  return parser.parseFromString(xml, 'text/xml');
}
