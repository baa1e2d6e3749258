/**
 * Patchwell's own SAML addresses for one connection (the service provider side), built from
 * the console's public origin (`PATCHWELL_PUBLIC_URL`, or a loopback request's origin) and
 * the connection's UUID. Pure, so the sign-in flow builds the very same values.
 */

/** The SP metadata document's URL. */
export const spMetadataUrl = (baseUrl: string, connectionUuid: string) =>
  `${baseUrl}/api/saml/${connectionUuid}/metadata`;

/** The SP entity ID: the metadata URL, as is customary, so an IdP can fetch it by its name. */
export const spEntityId = spMetadataUrl;

/** Where the IdP POSTs its Response (AssertionConsumerService, HTTP-POST binding). */
export const acsUrl = (baseUrl: string, connectionUuid: string) => `${baseUrl}/api/saml/${connectionUuid}/acs`;

/** The three together, as the connection API shows them. */
export const serviceProviderOf = (baseUrl: string, connectionUuid: string) => ({
  entity_id: spEntityId(baseUrl, connectionUuid),
  acs_url: acsUrl(baseUrl, connectionUuid),
  metadata_url: spMetadataUrl(baseUrl, connectionUuid),
});
