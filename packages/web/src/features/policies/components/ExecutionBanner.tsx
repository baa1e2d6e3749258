import {
  EXECUTION_POLLING_FAILED,
  executionBanner,
  type IndicatorKind,
} from '@patchwell/core/policies/policy-runs.schema';
import { Alert, Loader, Text, type MantineColor } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { policyKeys, usePolicyRun } from '../policies.api';
import { POLICY_TEXTS as T } from '../policies.texts';

const KIND_COLOR: Record<IndicatorKind, MantineColor> = {
  informative: 'blue',
  success: 'green',
  'in-progress': 'blue',
  alert: 'yellow',
  failed: 'red',
};

function KindIcon({ kind }: { kind: IndicatorKind }) {
  switch (kind) {
    case 'success':
      return <IconCircleCheck size={18} aria-hidden="true" />;
    case 'failed':
      return <IconCircleX size={18} aria-hidden="true" />;
    case 'alert':
      return <IconAlertTriangle size={18} aria-hidden="true" />;
    case 'in-progress':
      return <Loader size={16} aria-hidden="true" />;
    default:
      return <IconInfoCircle size={18} aria-hidden="true" />;
  }
}

export type ExecutionBannerProps = {
  zoneId: number;
  policyId: number;
  runId: number;
  onDismiss: () => void;
};

/**
 * The banner after 'Run now': polls the run every 2 s until it completes, fails or times
 * out, with the spec's state texts, and the spec's text when polling fails.
 */
export function ExecutionBanner({ zoneId, policyId, runId, onDismiss }: ExecutionBannerProps) {
  const run = usePolicyRun(zoneId, policyId, runId);
  const queryClient = useQueryClient();
  const status = run.data?.status;
  const isDone = status === 'completed' || status === 'error' || status === 'timeout';
  useEffect(() => {
    if (!isDone) return;
    // The run's results changed the list's compliance counts and the policy's runs.
    for (const key of [
      policyKeys.stats(zoneId),
      ['policies', zoneId, 'list'],
      ['policies', zoneId, 'detail', policyId, 'runs'],
    ]) {
      void queryClient.invalidateQueries({ queryKey: key });
    }
  }, [isDone, queryClient, zoneId, policyId]);
  let kind: IndicatorKind;
  let text: string;
  let detail: string | null = null;
  if (run.isError) {
    kind = 'alert';
    text = EXECUTION_POLLING_FAILED;
  } else if (!run.data) {
    kind = 'in-progress';
    text = executionBanner('created').text;
  } else {
    const banner = executionBanner(run.data.status, run.data.error_code);
    kind = banner.kind;
    text = banner.text;
    if (run.data.status === 'error' && run.data.error_message) detail = run.data.error_message;
  }
  return (
    <Alert
      color={KIND_COLOR[kind]}
      icon={<KindIcon kind={kind} />}
      title={T.executionTitle}
      withCloseButton
      closeButtonLabel={T.dismiss}
      onClose={onDismiss}
      role="status"
      data-kind={kind}
    >
      <Text size="sm">{text}</Text>
      {detail && (
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      )}
    </Alert>
  );
}
