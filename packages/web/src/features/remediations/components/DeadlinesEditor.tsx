import { zodResolver } from '@hookform/resolvers/zod';
import type { RemediationDeadlines } from '@patchwell/core/remediation/cves.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Button, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { Can } from '../../../app/access';
import { CONSOLE_TEXTS } from '../../../texts';
import { notify } from '../../../ui/notify';
import { DEADLINE_SEVERITIES, ZDeadlinesForm, toDeadlinesInput, type DeadlinesInput } from '../remediation-forms';
import { cveKeys, saveRemediationDeadlines, useRemediationDeadlines } from '../remediations.api';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';
import { taskKeys } from '../../tasks/tasks.api';

function DeadlinesForm({
  zoneId,
  deadlines,
  canEdit,
}: {
  zoneId: number;
  deadlines: RemediationDeadlines;
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<DeadlinesInput, unknown, RemediationDeadlines>({
    resolver: zodResolver(ZDeadlinesForm),
    defaultValues: toDeadlinesInput(deadlines),
  });
  const onValid = async (values: RemediationDeadlines) => {
    try {
      await saveRemediationDeadlines(zoneId, values);
      notify.success(T.deadlinesSaved);
      reset(toDeadlinesInput(values));
      // Due dates and overdue counts follow the deadlines.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: cveKeys.all }),
        queryClient.invalidateQueries({ queryKey: taskKeys.all }),
      ]);
    } catch (error) {
      void notify.apiError(error);
    }
  };
  return (
    <form onSubmit={handleSubmit(onValid)} noValidate aria-label={T.deadlinesTitle}>
      <Stack gap="sm">
        <Group align="flex-start" gap="sm">
          {DEADLINE_SEVERITIES.map((s) => (
            <TextInput
              key={s}
              w={150}
              inputMode="numeric"
              label={T.deadlineLabel(CONSOLE_TEXTS.severity[s] ?? s)}
              readOnly={!canEdit}
              error={errors[s]?.message}
              {...register(s)}
            />
          ))}
        </Group>
        {canEdit ? (
          <Group>
            <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
              {T.saveDeadlines}
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {T.deadlinesReadOnly}
          </Text>
        )}
      </Stack>
    </form>
  );
}

/** The zone's remediation deadlines by severity (GET/PUT remediation-deadlines); editing needs Task.modify. */
export function DeadlinesEditor({ zoneId, can }: { zoneId: number; can: Can }) {
  const deadlines = useRemediationDeadlines(zoneId);
  return (
    <Stack gap="sm" component="section" aria-labelledby="deadlines-title">
      <Title order={2} fz="h4" id="deadlines-title">
        {T.deadlinesTitle}
      </Title>
      <Text size="sm" c="dimmed">
        {T.deadlinesIntro}
      </Text>
      {deadlines.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {deadlines.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {deadlines.data && <DeadlinesForm zoneId={zoneId} deadlines={deadlines.data} canEdit={can('Task', 'modify')} />}
    </Stack>
  );
}
