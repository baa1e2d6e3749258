import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants';
import { TEXTS } from '../texts';

/**
 * Password rules: at least 12 characters, at most 128, every character counts (no
 * truncation, unlike bcrypt's 72 bytes). The common-password list is checked on the
 * server, which holds the list.
 */
export const ZPassword = z
  .string({ error: TEXTS.validation.required })
  .min(1, TEXTS.validation.required)
  .min(PASSWORD_MIN_LENGTH, TEXTS.validation.minLength(PASSWORD_MIN_LENGTH))
  .max(PASSWORD_MAX_LENGTH, `Value must be at most ${PASSWORD_MAX_LENGTH} characters.`);

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose a less predictable one.';
