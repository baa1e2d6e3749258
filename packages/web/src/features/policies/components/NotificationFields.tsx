import {
  DEFERRAL_HOURS_MAX,
  DEFERRAL_HOURS_MIN,
  DEFERRAL_OPTIONS_MAX,
  MAX_DEFERRALS_MAX,
  MAX_DEFERRALS_MIN,
  NOTIFICATION_MESSAGE_MAC_MAX,
  NOTIFICATION_MESSAGE_MAX,
  REBOOT_MODES,
} from '@patchwell/core/policies/policy-configuration.schema';
import { MultiSelect, NativeSelect, NumberInput, Stack, TextInput, Title } from '@mantine/core';
import { Controller, useWatch, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { SwitchField } from './SwitchField';
import { POLICY_TEXTS as T } from '../policies.texts';
import type { PolicyControl, PolicyFormValues } from '../policy-form';

export type NotificationFieldsProps = {
  control: PolicyControl;
  register: UseFormRegister<PolicyFormValues>;
  errors: FieldErrors<PolicyFormValues>;
  /** Patch policies also notify and defer before installing. */
  withInstallNotice: boolean;
};

const HOUR_OPTIONS = Array.from({ length: DEFERRAL_HOURS_MAX - DEFERRAL_HOURS_MIN + 1 }, (_, i) =>
  String(i + DEFERRAL_HOURS_MIN),
);

type DeferralNames = {
  periods:
    | 'configuration.custom_notification_deferment_periods'
    | 'configuration.custom_pending_reboot_notification_deferment_periods';
  max: 'configuration.custom_notification_max_delays' | 'configuration.custom_pending_reboot_notification_max_delays';
};

/** Deferral hour options (1–24, unique, 1 to 3) and the maximum number of deferrals (1–10). */
function DeferralFields({
  control,
  names,
  labels,
  periodsError,
  maxError,
}: {
  control: PolicyControl;
  names: DeferralNames;
  labels: { periods: string; max: string };
  periodsError?: string;
  maxError?: string;
}) {
  return (
    <>
      <Controller
        control={control}
        name={names.periods}
        render={({ field }) => (
          <MultiSelect
            label={labels.periods}
            description={T.deferralOptionsDescription}
            data={HOUR_OPTIONS}
            value={field.value}
            onChange={(v) => field.onChange([...v].sort((a, b) => Number(a) - Number(b)))}
            onBlur={field.onBlur}
            maxValues={DEFERRAL_OPTIONS_MAX}
            error={periodsError}
            maw={360}
          />
        )}
      />
      <Controller
        control={control}
        name={names.max}
        render={({ field }) => (
          <NumberInput
            label={labels.max}
            min={MAX_DEFERRALS_MIN}
            max={MAX_DEFERRALS_MAX}
            allowDecimal={false}
            clampBehavior="none"
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={maxError}
            maw={200}
          />
        )}
      />
    </>
  );
}

/** Before-patching and before-reboot notices, their deferrals and the reboot mode. */
export function NotificationFields({ control, register, errors, withInstallNotice }: NotificationFieldsProps) {
  const [notifyUser, installDeferral, notifyReboot, rebootDeferral] = useWatch({
    control,
    name: [
      'configuration.notify_user',
      'configuration.install_deferral_enabled',
      'configuration.notify_reboot_user',
      'configuration.pending_reboot_deferral_enabled',
    ],
  });
  const e = errors.configuration;
  return (
    <Stack gap="sm">
      <Title order={2} fz="h4">
        {T.notifications}
      </Title>
      {withInstallNotice && (
        <>
          <SwitchField control={control} name="configuration.notify_user" label={T.notifyUser} />
          {notifyUser && (
            <>
              <TextInput
                label={T.patchMessage}
                maxLength={NOTIFICATION_MESSAGE_MAX}
                {...register('configuration.custom_notification_patch_message')}
                error={e?.custom_notification_patch_message?.message}
              />
              <TextInput
                label={T.patchMessageMac}
                maxLength={NOTIFICATION_MESSAGE_MAC_MAX}
                {...register('configuration.custom_notification_patch_message_mac')}
                error={e?.custom_notification_patch_message_mac?.message}
              />
              <SwitchField control={control} name="configuration.install_deferral_enabled" label={T.installDeferral} />
              {installDeferral && (
                <DeferralFields
                  control={control}
                  names={{
                    periods: 'configuration.custom_notification_deferment_periods',
                    max: 'configuration.custom_notification_max_delays',
                  }}
                  labels={{ periods: T.deferralOptions, max: T.maxDeferrals }}
                  periodsError={e?.custom_notification_deferment_periods?.message}
                  maxError={e?.custom_notification_max_delays?.message}
                />
              )}
            </>
          )}
        </>
      )}
      <NativeSelect
        label={T.rebootMode}
        maw={420}
        data={REBOOT_MODES.map((m) => ({ value: m, label: T.rebootModes[m] ?? m }))}
        {...register('configuration.reboot_mode')}
      />
      <SwitchField control={control} name="configuration.notify_reboot_user" label={T.notifyReboot} />
      {notifyReboot && (
        <>
          <TextInput
            label={T.rebootMessage}
            maxLength={NOTIFICATION_MESSAGE_MAX}
            {...register('configuration.custom_notification_reboot_message')}
            error={e?.custom_notification_reboot_message?.message}
          />
          <TextInput
            label={T.rebootMessageMac}
            maxLength={NOTIFICATION_MESSAGE_MAC_MAX}
            {...register('configuration.custom_notification_reboot_message_mac')}
            error={e?.custom_notification_reboot_message_mac?.message}
          />
          <SwitchField
            control={control}
            name="configuration.pending_reboot_deferral_enabled"
            label={T.rebootDeferral}
          />
          {rebootDeferral && (
            <DeferralFields
              control={control}
              names={{
                periods: 'configuration.custom_pending_reboot_notification_deferment_periods',
                max: 'configuration.custom_pending_reboot_notification_max_delays',
              }}
              labels={{ periods: T.rebootDeferralOptions, max: T.rebootMaxDeferrals }}
              periodsError={e?.custom_pending_reboot_notification_deferment_periods?.message}
              maxError={e?.custom_pending_reboot_notification_max_delays?.message}
            />
          )}
        </>
      )}
    </Stack>
  );
}
