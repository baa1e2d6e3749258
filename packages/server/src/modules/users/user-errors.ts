import { ERROR_CATALOGUE } from '@patchwell/core/shell/error-catalogue';
import { appError, type AppError } from '../../domain/errors';

/** 409 'This email address is already in use.' on the `email` field. */
export function emailInUse(): AppError {
  return appError('users.email_in_use', { fieldErrors: { email: [ERROR_CATALOGUE['users.email_in_use'].message] } });
}

/** 409 'This user already exists in this Zone' on `field` (the invited e-mail, or a zone row). */
export function alreadyInZone(field = 'email'): AppError {
  return appError('users.already_in_zone', {
    fieldErrors: { [field]: [ERROR_CATALOGUE['users.already_in_zone'].message] },
  });
}

/** 403: a global administrator's role and status change only in global user management (spec A section 6). */
export function globalAdminManagedGlobally(): AppError {
  return appError('users.global_admin');
}
