import { zodResolver } from '@hookform/resolvers/zod';
import { TEXTS } from '@patchwell/core/texts';
import { ZCreateZoneBody, type CreateZoneBody } from '@patchwell/core/zones/zones.schema';
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { firstErrorText, serverFieldErrors } from '../../api/field-errors';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { useRefreshProfile } from '../../app/useRefreshProfile';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useUnsavedChangesPrompt } from '../../ui/useUnsavedChangesPrompt';
import { createAccountZone, zoneKeys } from '../zones/zones.api';

/** /global/setup/zones/create-zone (reached only when the tier rule allows; else 404). */
export function GlobalCreateZonePage() {
  usePageTitle(CONSOLE_TEXTS.globalZones.createTitle);
  const { profile, zone, zoneId } = useShell();
  const accountId = profile.account_id ?? 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refreshProfile = useRefreshProfile(zoneId);
  const [createdId, setCreatedId] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isValid, isDirty, isSubmitting },
  } = useForm<CreateZoneBody>({ resolver: zodResolver(ZCreateZoneBody), mode: 'all', defaultValues: { name: '' } });

  useUnsavedChangesPrompt(isDirty && createdId === null);

  useEffect(() => {
    if (createdId !== null) navigate(withZone(pathTo(PATHS.globalZoneDetail, { zoneId: createdId }), zoneId));
  }, [createdId, navigate, zoneId]);

  const onValid = async (values: CreateZoneBody) => {
    try {
      // Same parent as a zone created from the organisation menu: the current zone's parent.
      const parentId = zone?.parent_id ?? zone?.id;
      const created = await createAccountZone(accountId, { ...values, parent_id: parentId ?? undefined });
      notify.success(TEXTS.zones.created);
      await queryClient.invalidateQueries({ queryKey: zoneKeys.accountZones(accountId) });
      await refreshProfile();
      setCreatedId(created.id);
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      if (fieldErrors.name) setError('name', { type: 'server', message: fieldErrors.name }, { shouldFocus: true });
      notify.error(firstErrorText(error));
    }
  };

  return (
    <Stack gap="md" maw={560}>
      <Title order={2} fz="h3">
        {CONSOLE_TEXTS.globalZones.createTitle}
      </Title>
      <form onSubmit={handleSubmit(onValid)} noValidate>
        <Stack gap="md">
          <TextInput
            label={CONSOLE_TEXTS.createZone.name}
            required
            {...register('name')}
            error={errors.name?.message}
          />
          <Group>
            <Button type="submit" disabled={!isValid} loading={isSubmitting}>
              {CONSOLE_TEXTS.createZone.submit}
            </Button>
            <Button variant="default" component={Link} to={withZone(PATHS.globalZones, zoneId)}>
              {CONSOLE_TEXTS.common.cancel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
