import { ZEmail } from '@patchwell/core/auth/signup.schema';
import { ZAccountRole, ZZoneAssignments, nameField, type AccountUser } from '@patchwell/core/users/users.schema';
import { z } from 'zod';

/** A select's value as a number; '' becomes NaN, which the shared schema reports as missing. */
const selected = (value: string) => (value === '' ? Number.NaN : Number(value));

/**
 * The zone/role rows of the user editor. Select values arrive as strings; the shared
 * ZZoneAssignments then checks them: 'Zone is required', 'Role is required', and 'This
 * user already exists in this Zone' for a zone listed twice.
 */
export const ZZoneRowsInput = z
  .array(z.object({ zone_id: z.string(), role_id: z.string() }))
  .transform((rows) => rows.map((r) => ({ zone_id: selected(r.zone_id), role_id: selected(r.role_id) })))
  .pipe(ZZoneAssignments);

/** Create-user form: names, email, account role, zone/role pairs. */
export const ZCreateUserForm = z.object({
  firstname: nameField('First name'),
  lastname: nameField('Last name'),
  email: ZEmail,
  account_rbac_role: ZAccountRole,
  zones: ZZoneRowsInput,
});
export type CreateUserFormInput = z.input<typeof ZCreateUserForm>;
export type CreateUserFormOutput = z.output<typeof ZCreateUserForm>;

/** User-editor form: the e-mail is shown but not editable (the contract's PUT has no email). */
export const ZEditUserForm = ZCreateUserForm.extend({ email: z.string() });

/** The editor's starting values for a user. */
export function editUserDefaults(user: AccountUser): CreateUserFormInput {
  return {
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    account_rbac_role: user.account_rbac_role,
    zones: user.zones.map((z) => ({ zone_id: String(z.zone_id), role_id: String(z.role_id) })),
  };
}
