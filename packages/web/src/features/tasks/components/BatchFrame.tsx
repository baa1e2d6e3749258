import type { Batch } from '@patchwell/core/remediation/batches.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Anchor, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Outlet, useOutletContext, useParams } from 'react-router';
import { canFor, type Can } from '../../../app/access';
import { useShell } from '../../../app/shell-context';
import { CONSOLE_TEXTS } from '../../../texts';
import { CsvDownloadButton } from '../../../ui/CsvDownloadButton';
import { LinkTabs, type LinkTab } from '../../../ui/LinkTabs';
import { usePageTitle } from '../../../ui/usePageTitle';
import { batchCsvHref, useBatch } from '../tasks.api';
import { TASK_TEXTS as T } from '../tasks.texts';
import { BatchReviewActions } from './BatchReviewActions';
import { BatchStatusBadge } from './RemediationBadges';

/** What a batch page's tabs (child routes) receive. */
export type BatchOutlet = { zoneId: number; batch: Batch; can: Can };

export function useBatchOutlet(): BatchOutlet {
  return useOutletContext<BatchOutlet>();
}

export function useBatchIdParam(): number {
  const id = Number(useParams().batchId);
  return Number.isInteger(id) && id > 0 ? id : 0;
}

export type BatchFrameProps = {
  back: { to: string; label: string };
  /** The child routes' tabs, built from the batch id. */
  tabs: (batchId: number) => LinkTab[];
  tabsLabel: string;
  /** Shown above the tabs. */
  extra?: (batch: Batch) => ReactNode;
  /** Accept and reject in the header; the remediations view has them on its solutions tab instead. */
  hasReviewInHeader?: boolean;
};

/**
 * A batch page (/manage/tasks/batches/{id} and /manage/remediations/{id}): its name,
 * status, CSV (not while building), accept and reject, then its tabs as child routes.
 * While the batch builds, the page refreshes by itself.
 */
export function BatchFrame({ back, tabs, tabsLabel, extra, hasReviewInHeader = true }: BatchFrameProps) {
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const batchId = useBatchIdParam();
  const batch = useBatch(zoneId, batchId);
  usePageTitle(batch.data ? T.batchTitle(batch.data.report_source) : T.batchesTitle);
  const backLink = (
    <Anchor component={Link} to={back.to} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {back.label}
      </Group>
    </Anchor>
  );
  if (batch.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  const b = batch.data;
  if (!b) {
    return (
      <Stack gap="md">
        {backLink}
        <Alert color="red" role="alert">
          {T.batchNotFound}
        </Alert>
      </Stack>
    );
  }
  const outlet: BatchOutlet = { zoneId, batch: b, can };
  return (
    <Stack gap="md">
      {backLink}
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            {T.batchTitle(b.report_source)}
          </Title>
          <Group gap="xs">
            <BatchStatusBadge status={b.status} />
            <Text size="sm" c="dimmed">
              {T.sources[b.source] ?? b.source}
            </Text>
          </Group>
        </Stack>
        <Group gap="xs">
          {b.status !== 'building' && <CsvDownloadButton href={batchCsvHref(zoneId, b.id)} label={T.downloadCsv} />}
          {hasReviewInHeader && <BatchReviewActions zoneId={zoneId} batch={b} can={can} />}
        </Group>
      </Group>
      {b.status === 'building' && (
        <Alert color="blue" role="status">
          <Group gap="xs">
            <Loader size="xs" aria-hidden="true" />
            {T.building}
          </Group>
        </Alert>
      )}
      {b.status === 'error' && (
        <Alert color="red" role="alert">
          {T.buildFailed(b.error ?? TEXTS.execution.unknownError)}
        </Alert>
      )}
      {extra?.(b)}
      <LinkTabs tabs={tabs(b.id)} label={tabsLabel} />
      <Outlet context={outlet} />
    </Stack>
  );
}
