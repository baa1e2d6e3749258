import { z } from 'zod';

/** `GET /api/user/issaml`: whether an e-mail address signs in through its account's identity provider. */
export const ZIsSamlQuery = z.object({
  /** The address typed on the login page; only its domain is looked at. */
  email: z.string().trim().min(1).max(320),
  /** The zone the console asked for; carried to the console after sign-in. */
  o: z.coerce.number().int().positive().optional(),
  /** The UUID of one connection, to sign in through it rather than the domain's (ignored unless the domain's). */
  connection: z.string().max(64).optional(),
});
export type IsSamlQuery = z.infer<typeof ZIsSamlQuery>;

/**
 * The answer, the same shape for every address: `saml` true with the address the browser
 * goes to (`/api/saml/{uuid}/login?…`) when the domain is verified by an account with a
 * connection for it; otherwise false and null.
 */
export const ZIsSamlResult = z.object({
  saml: z.boolean(),
  redirect: z.string().nullable(),
});
export type IsSamlResult = z.infer<typeof ZIsSamlResult>;

/** A connection's public id in `/api/saml/{uuid}/…`. */
export const ZSamlConnectionParams = z.object({ uuid: z.uuid() });

/** `GET /api/saml/{uuid}/login`: where the console goes after sign-in. */
export const ZSamlLoginQuery = z.object({
  /** A console path (the login page's rule: relative paths only); anything else is dropped. */
  redirect: z.string().max(2048).optional(),
  o: z.coerce.number().int().positive().optional(),
});
export type SamlLoginQuery = z.infer<typeof ZSamlLoginQuery>;

/** The largest `SAMLResponse` accepted (base64). Real responses are a few kB. */
export const SAML_RESPONSE_MAX_CHARS = 200_000;

/** `POST /api/saml/{uuid}/acs` (HTTP-POST binding, form-encoded): the IdP's response. */
export const ZSamlAcsBody = z.object({
  SAMLResponse: z.string().max(SAML_RESPONSE_MAX_CHARS),
  /** Echoed by the IdP; nothing in it is trusted (the request row holds the redirect). */
  RelayState: z.string().max(1024).optional(),
});
export type SamlAcsBody = z.infer<typeof ZSamlAcsBody>;

// Kept in the zod-free constants so the login page reads it without the schemas.
export { SAML_SIGNIN_ERROR } from '../constants';
