/** Console texts of the APNS settings page. */
export const APNS_PAGE_TEXTS = {
  title: 'APNS Settings',
  intro:
    'Patchwell manages macOS devices through the Apple Push Notification service (APNS), which needs a push certificate issued by Apple for this zone. A certificate is valid for one year: renew it before it expires, from the same Apple ID, so that enrolled devices keep answering.',
  current: 'Current certificate',
  none: 'No APNS certificate has been uploaded for this zone.',
  subject: 'Subject',
  topic: 'Topic',
  serial: 'Serial number',
  issuer: 'Issuer',
  validFrom: 'Valid from',
  validTo: 'Expires',
  fingerprint: 'SHA-256 fingerprint',
  uploaded: 'Uploaded',
  uploadedBy: (when: string, who: string | null) => (who ? `${when} by ${who}` : when),
  privateKey: 'Private key',
  keyStored: 'Stored here, encrypted',
  keyMissing:
    'Not stored here. Generate a request here and upload the certificate Apple issues for it, or upload a PKCS#12 file that holds the key.',
  daysLeft: (n: number) => (n === 1 ? '1 day left' : `${n} days left`),
  expiringTitle: (n: number) => `The APNS certificate expires in ${n === 1 ? '1 day' : `${n} days`}`,
  expiringBody: (date: string) =>
    `It expires on ${date}. Renew it now: generate a renewal request below, renew the certificate with it in Apple’s Push Certificates Portal, and upload the new certificate.`,
  expiredTitle: 'The APNS certificate has expired',
  expiredBody: (date: string) =>
    `It expired on ${date}: macOS devices no longer receive management commands. Renew it with a request generated below, then upload the new certificate.`,
  step1: '1. Generate a certificate signing request',
  step1Body:
    'Patchwell makes a key pair for this zone and keeps the private key encrypted on the server. Download the request and upload it to Apple’s Push Certificates Portal.',
  step1Renew:
    'A renewal request uses the current certificate’s key, so the renewed certificate keeps working with it. In Apple’s portal, choose Renew on the existing certificate.',
  generate: 'Generate Request',
  generateRenewal: 'Generate Renewal Request',
  generateNewKey: 'Generate Request with a New Key',
  pending: 'Pending request',
  pendingMeta: (when: string, who: string | null) => `Generated ${when}${who ? ` by ${who}` : ''}`,
  download: 'Download Request',
  copy: 'Copy the request',
  generated: 'The certificate signing request is ready.',
  step2: '2. Upload the certificate Apple issued',
  step2Body:
    'Upload the .pem file from Apple’s portal, or a PKCS#12 (.p12) file with its password. A new certificate replaces the current one.',
  file: 'Certificate file',
  filePlaceholder: 'Choose a .pem, .cer or .p12 file',
  password: 'PKCS#12 password',
  upload: 'Upload Certificate',
  uploaded_: 'The APNS certificate was saved.',
  remove: 'Remove Certificate',
  removeTitle: 'Remove the APNS certificate?',
  removeBody:
    'The certificate, any pending request and their private keys are deleted. macOS devices stop receiving management commands until a new certificate is uploaded.',
  removed: 'The APNS certificate was removed.',
} as const;
