import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../free-port';

export { freePort };

/**
 * A real SAML identity provider for the browser journey: Debian's SimpleSAMLphp 1.19 served by
 * `php -S` on loopback, configured in a temporary directory (../shared/STACK.md, W2.1): the
 * example user alice/alicepass, NameID = her e-mail, Response and Assertion signed (RSA-SHA256)
 * with a key made here. It trusts the service providers `trust` names (the Patchwell
 * connection under test, whose SP details exist only once the connection does).
 */

export const SIMPLESAMLPHP_WWW = '/usr/share/simplesamlphp/www';

/** Polls `url` until it answers (any status), or fails after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url, { redirect: 'manual' });
      return;
    } catch (error) {
      if (Date.now() > until) throw new Error(`${url} did not answer`, { cause: error });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export type Idp = {
  baseUrl: string;
  /** Where SimpleSAMLphp publishes its IdP metadata (an EntityDescriptor), as an administrator would download it. */
  metadataUrl: string;
  /**
   * Makes `sp` the one service provider the IdP answers. SimpleSAMLphp reads its flat-file
   * metadata on every request (the CLI server has no opcode cache), so no restart is needed.
   */
  trust(sp: { entityId: string; acsUrl: string }): void;
  process: ChildProcess;
};

/** Writes the configuration and starts the IdP, trusting no service provider yet. */
export async function startSimpleSamlPhp(): Promise<Idp> {
  const dir = mkdtempSync(join(tmpdir(), 'patchwell-ssp-'));
  for (const sub of ['config', 'metadata', 'cert', 'log', 'tmp', 'data', 'sess']) mkdirSync(join(dir, sub));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=idp.patchwell.test'].concat([
      '-keyout',
      join(dir, 'cert/idp.key'),
      '-out',
      join(dir, 'cert/idp.crt'),
    ]),
    { stdio: 'ignore' },
  );
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const php = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  // Debian's config (with its generated secrets) plus the overrides a loopback test needs.
  writeFileSync(
    join(dir, 'config/config.php'),
    `<?php
require '/etc/simplesamlphp/config.php';
$config['baseurlpath'] = ${php(`${baseUrl}/`)};
$config['enable.saml20-idp'] = true;
$config['module.enable']['exampleauth'] = true;
$config['session.cookie.secure'] = false;
$config['session.cookie.samesite'] = null;
$config['metadata.sources'] = [['type' => 'flatfile', 'directory' => ${php(join(dir, 'metadata'))}]];
$config['certdir'] = ${php(`${join(dir, 'cert')}/`)};
$config['logging.handler'] = 'file';
$config['loggingdir'] = ${php(`${join(dir, 'log')}/`)};
$config['tempdir'] = ${php(join(dir, 'tmp'))};
$config['datadir'] = ${php(`${join(dir, 'data')}/`)};
$config['session.phpsession.savepath'] = ${php(join(dir, 'sess'))};
`,
  );
  writeFileSync(
    join(dir, 'config/authsources.php'),
    `<?php
$config = ['admin' => ['core:AdminPassword'], 'example-userpass' => ['exampleauth:UserPass',
  'alice:alicepass' => ['uid' => ['alice'], 'email' => ['alice@example.org'], 'firstname' => ['Alice']]]];
`,
  );
  writeFileSync(
    join(dir, 'metadata/saml20-idp-hosted.php'),
    `<?php
$metadata['__DYNAMIC:1__'] = ['host' => '__DEFAULT__', 'privatekey' => 'idp.key', 'certificate' => 'idp.crt',
  'auth' => 'example-userpass', 'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256'];
`,
  );
  const trust = (sp: { entityId: string; acsUrl: string }) =>
    writeFileSync(
      join(dir, 'metadata/saml20-sp-remote.php'),
      `<?php
$metadata[${php(sp.entityId)}] = ['AssertionConsumerService' => ${php(sp.acsUrl)},
  'NameIDFormat' => 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'saml20.sign.response' => true, 'saml20.sign.assertion' => true,
  'authproc' => [10 => ['class' => 'saml:AttributeNameID', 'attribute' => 'email',
    'Format' => 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress']]];
`,
    );
  writeFileSync(join(dir, 'metadata/saml20-sp-remote.php'), '<?php\n$metadata = [];\n');
  const child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', SIMPLESAMLPHP_WWW], {
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: join(dir, 'config') },
    stdio: 'ignore',
  });
  const metadataUrl = `${baseUrl}/saml2/idp/metadata.php`;
  await waitForHttp(metadataUrl, 15_000);
  return { baseUrl, metadataUrl, trust, process: child };
}

/** Ends a process this journey started and waits for it to exit. */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
