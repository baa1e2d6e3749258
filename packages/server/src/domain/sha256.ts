import { hash } from 'node:crypto';

/**
 * The SHA-256 of a text as lower-case hex: how every token, key and link is stored and looked
 * up. One call, no Hash object: check-ins and console requests hash a token each, and a Hash
 * object holds native memory until V8 collects it (the server's RSS grew by hundreds of MB
 * under check-in load while its heap did not).
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
