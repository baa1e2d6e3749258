import { TEXTS } from '@patchwell/core/texts';
import { AppError } from '../../http/errors';

/** 409 'This email address is already in use.' on the `email` field. */
export function emailInUse(): AppError {
  return new AppError('users.email_in_use', 409, TEXTS.users.emailInUse, { email: [TEXTS.users.emailInUse] });
}

/** 409 'This user already exists in this Zone' on `field` (the invited e-mail, or a zone row). */
export function alreadyInZone(field = 'email'): AppError {
  return new AppError('users.already_in_zone', 409, TEXTS.users.alreadyInZone, {
    [field]: [TEXTS.users.alreadyInZone],
  });
}

/** 403: a global administrator's role and status change only in global user management (spec A section 6). */
export function globalAdminManagedGlobally(): AppError {
  return new AppError(
    'users.global_admin',
    403,
    "A global administrator's role and status can only be changed in global user management.",
  );
}
