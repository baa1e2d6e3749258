import { POLICY_NAME_MAX_LENGTH, type CloneJob, type PolicyType } from '@patchwell/core/policies/policies.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Modal, MultiSelect, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../../api/error-text';
import { can } from '../../../app/access';
import { PATHS, pathTo } from '../../../app/paths';
import { useShell } from '../../../app/shell-context';
import { withZone } from '../../../app/zone';
import { DialogActions } from '../../../ui/DialogActions';
import { notify } from '../../../ui/notify';
import { clonePolicy, policyKeys, useCloneJob } from '../policies.api';
import { POLICY_TEXTS as T } from '../policies.texts';
import { POLICY_RESOURCE } from '../policies.types';

export type CloneDialogProps = {
  zoneId: number;
  /** The policy to clone; null closes the dialog. */
  policy: { id: number; name: string; policy_type_name: PolicyType } | null;
  onClose: () => void;
};

/**
 * Clone a policy: name the copy, start the clone job, follow its progress (copying files
 * can take up to 10 minutes), then open the copy, which starts inactive.
 */
export function CloneDialog({ zoneId, policy, onClose }: CloneDialogProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { profile } = useShell();
  const own = profile.orgs.find((o) => o.id === zoneId);
  // Zones where the user may create this type: the copy can go to several at once.
  const zones = policy
    ? profile.orgs.filter((o) => can(profile, o.id, POLICY_RESOURCE[policy.policy_type_name], 'create'))
    : [];
  const [targets, setTargets] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [isStarting, setStarting] = useState(false);
  const [shownFor, setShownFor] = useState<number | null>(null);
  if ((policy?.id ?? null) !== shownFor) {
    setShownFor(policy?.id ?? null);
    setName(policy ? T.cloneOf(policy.name).slice(0, POLICY_NAME_MAX_LENGTH) : '');
    setNameError(null);
    setTargets(own ? [own.zone_id] : []);
    setJobId(null);
    setStartError(null);
  }
  const job = useCloneJob(zoneId, jobId);
  const data: CloneJob | undefined = job.data;

  useEffect(() => {
    if (data?.status !== 'completed') return;
    const copy = data.data.find((d) => d.org_id === zoneId) ?? data.data[0];
    void queryClient.invalidateQueries({ queryKey: policyKeys.all });
    notify.success(T.cloneDone(data.policy_name));
    onClose();
    if (copy) void navigate(withZone(pathTo(PATHS.policyDetail, { policyId: copy.policy_id }), copy.org_id));
  }, [data, zoneId, queryClient, navigate, onClose]);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!policy) return;
    if (!name.trim()) {
      setNameError(TEXTS.validation.required);
      return;
    }
    if (targets.length === 0) return;
    setStarting(true);
    setStartError(null);
    try {
      const isOwnOnly = targets.length === 1 && targets[0] === own?.zone_id;
      const started = await clonePolicy(zoneId, policy.id, {
        name: name.trim(),
        ...(isOwnOnly ? {} : { target_zone_ids: targets }),
      });
      setJobId(started.id);
    } catch (error) {
      setStartError(errorText(error));
    } finally {
      setStarting(false);
    }
  };

  const isRunning = jobId !== null && data?.status !== 'error';
  return (
    <Modal opened={policy !== null} onClose={onClose} title={T.cloneTitle} size="md">
      <form onSubmit={onSubmit} noValidate aria-label={T.cloneTitle}>
        <Stack gap="md">
          <Text size="sm">{T.cloneIntro}</Text>
          <TextInput
            label={T.cloneName}
            required
            data-autofocus
            maxLength={POLICY_NAME_MAX_LENGTH}
            value={name}
            disabled={isRunning}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
            error={nameError}
          />
          {zones.length > 1 && (
            <MultiSelect
              label={T.cloneZones}
              description={T.cloneZonesDescription}
              data={zones.map((z) => ({ value: z.zone_id, label: z.name }))}
              value={targets}
              onChange={setTargets}
              disabled={isRunning}
              error={targets.length === 0 ? TEXTS.validation.atLeastOne : undefined}
              searchable
            />
          )}
          {jobId !== null && (
            <Stack gap={4}>
              <Text size="sm">{T.cloneProgress(data?.progress ?? 0)}</Text>
              <Progress value={data?.progress ?? 0} aria-label={T.cloneProgress(data?.progress ?? 0)} animated />
            </Stack>
          )}
          {data?.status === 'error' && (
            <Alert color="red" role="alert">
              {T.cloneFailed(data.error ?? TEXTS.generic.unexpected)}
            </Alert>
          )}
          {job.isError && (
            <Alert color="red" role="alert">
              {errorText(job.error)}
            </Alert>
          )}
          {startError && (
            <Alert color="red" role="alert">
              {startError}
            </Alert>
          )}
          <DialogActions submitLabel={T.cloneStart} isSubmitting={isStarting || isRunning} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
