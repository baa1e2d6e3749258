import { zodResolver } from '@hookform/resolvers/zod';
import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import { TEXTS } from '@patchwell/core/texts';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../api/error-text';
import { serverFieldErrors } from '../../api/field-errors';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useUnsavedChangesPrompt } from '../../ui/useUnsavedChangesPrompt';
import { CHECKIN_DEFAULT_S, ZGroupForm, type GroupFormInput, type GroupFormValues } from './group-form';
import { createGroup, deleteGroup, groupKeys, updateGroup, useGroup, useGroups } from './groups.api';

const T = CONSOLE_TEXTS.groups;

function BackLink({ zoneId }: { zoneId: number }) {
  return (
    <Anchor component={Link} to={withZone(PATHS.groups, zoneId)} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {T.back}
      </Group>
    </Anchor>
  );
}

type GroupFormProps = {
  zoneId: number;
  group: ServerGroup | null;
  groups: readonly ServerGroup[];
  canEdit: boolean;
  canDelete: boolean;
};

/** Name (required), parent group, check-in interval and notes; delete for non-default groups. */
function GroupForm({ zoneId, group, groups, canEdit, canDelete }: GroupFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isSaved, setSaved] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<GroupFormInput, unknown, GroupFormValues>({
    resolver: zodResolver(ZGroupForm),
    defaultValues: {
      name: group?.name ?? '',
      parent: group?.parent_server_group_id ? String(group.parent_server_group_id) : '',
      checkin_interval_s: String(group?.checkin_interval_s ?? CHECKIN_DEFAULT_S),
      notes: group?.notes ?? '',
    },
  });
  useUnsavedChangesPrompt(isDirty && !isSaved);
  const listPath = withZone(PATHS.groups, zoneId);

  const onValid = async (values: GroupFormValues) => {
    try {
      const body = { ...values, organization_id: zoneId };
      if (group) {
        await updateGroup(zoneId, group.id, body);
        notify.success(T.saved(values.name));
        reset(undefined, { keepValues: true });
      } else {
        const created = await createGroup(zoneId, body);
        setSaved(true);
        notify.success(T.created(values.name));
        await queryClient.invalidateQueries({ queryKey: groupKeys.all });
        await navigate(withZone(pathTo(PATHS.groupDetail, { groupId: created.id }), zoneId));
        return;
      }
      await queryClient.invalidateQueries({ queryKey: groupKeys.all });
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields.name) setError('name', { type: 'server', message: fields.name });
      else if (fields.checkin_interval_s)
        setError('checkin_interval_s', { type: 'server', message: fields.checkin_interval_s });
      else notify.error(errorText(error));
    }
  };

  const onDelete = () => {
    if (!group) return;
    confirmAction({
      title: T.deleteTitle,
      message: T.deleteBody(group.name, group.server_count),
      confirmLabel: T.delete,
      isDanger: true,
      onConfirm: () =>
        void deleteGroup(zoneId, group.id).then(
          async () => {
            setSaved(true);
            notify.success(T.deleted(group.name));
            await queryClient.invalidateQueries({ queryKey: groupKeys.all });
            await navigate(listPath);
          },
          (error: unknown) => notify.apiError(error),
        ),
    });
  };

  // A group cannot be its own parent, nor have one of its children as parent (one level checked).
  const parentOptions = groups.filter((g) => g.id !== group?.id && g.parent_server_group_id !== group?.id);

  return (
    <form onSubmit={handleSubmit(onValid)} noValidate aria-label={group ? T.editTitle : T.createTitle}>
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0 }}>
        <Stack gap="md" maw={560}>
          <TextInput label={T.name} required data-autofocus {...register('name')} error={errors.name?.message} />
          <NativeSelect
            label={T.parent}
            data={[
              { value: '', label: T.noParent },
              ...parentOptions.map((g) => ({ value: String(g.id), label: g.name })),
            ]}
            {...register('parent')}
          />
          <TextInput
            label={T.interval}
            description={T.intervalDescription}
            inputMode="numeric"
            {...register('checkin_interval_s')}
            error={errors.checkin_interval_s?.message}
          />
          <Textarea label={T.notes} rows={4} {...register('notes')} error={errors.notes?.message} />
          {canEdit && (
            <Group justify="space-between">
              <Button type="submit" loading={isSubmitting}>
                {group ? T.save : T.create}
              </Button>
              {group && canDelete && !group.default && (
                <Button color="red" variant="light" onClick={onDelete}>
                  {T.delete}
                </Button>
              )}
            </Group>
          )}
          {group?.default && (
            <Text size="sm" c="dimmed">
              {T.defaultNotDeletable}
            </Text>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}

/** /manage/groups/create-group (ServerGroup.create). */
export function CreateGroupPage() {
  usePageTitle(T.createTitle);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const groups = useGroups(zoneId);
  return (
    <Stack gap="md">
      <BackLink zoneId={zoneId} />
      <Title order={1} fz="h2">
        {T.createTitle}
      </Title>
      {!can('ServerGroup', 'create') ? (
        <Alert color="gray">{TEXTS.generic.noPermission}</Alert>
      ) : (
        <GroupForm zoneId={zoneId} group={null} groups={groups.data ?? []} canEdit canDelete={false} />
      )}
    </Stack>
  );
}

/** /manage/groups/{groupId}: the group editor, read-only without ServerGroup.modify. */
export function GroupEditorPage() {
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const groupId = Number(useParams().groupId);
  const isValidId = Number.isInteger(groupId) && groupId > 0;
  const group = useGroup(zoneId, groupId, isValidId);
  const groups = useGroups(zoneId);
  usePageTitle(group.data?.name ?? T.editTitle);

  if (isValidId && group.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  return (
    <Stack gap="md">
      <BackLink zoneId={zoneId} />
      {!group.data ? (
        <>
          <Title order={1} fz="h2">
            {T.editTitle}
          </Title>
          <Alert color="red" role="alert">
            {T.notFound}
          </Alert>
        </>
      ) : (
        <>
          <Group justify="space-between">
            <Title order={1} fz="h2">
              {group.data.name}
            </Title>
            <Anchor component={Link} to={withZone(PATHS.devices, zoneId, { group: String(group.data.id) })}>
              {T.deviceCount(group.data.server_count)}
            </Anchor>
          </Group>
          <GroupForm
            key={group.data.id}
            zoneId={zoneId}
            group={group.data}
            groups={groups.data ?? []}
            canEdit={can('ServerGroup', 'modify')}
            canDelete={can('ServerGroup', 'delete')}
          />
        </>
      )}
    </Stack>
  );
}
