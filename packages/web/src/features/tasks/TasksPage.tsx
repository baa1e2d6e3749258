import { REMEDIATION_SEVERITIES, SCANNER_SOURCES } from '@patchwell/core/remediation/scanners.schema';
import { TEXTS } from '@patchwell/core/texts';
import { TASK_STATUSES } from '@patchwell/core/remediation/tasks.schema';
import { Alert, Button, EmptyState, Group, Loader, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { IconChecklist } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters, apiPaging } from '../../ui/table/table-query';
import { useTableQuery, type TableQueryControls } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { TaskTable } from './components/TaskTable';
import { UploadScanDialog } from './components/UploadScanDialog';
import { useTasks } from './tasks.api';
import { TASK_TEXTS as T } from './tasks.texts';
import { useTaskActions } from './useTaskActions';

const FILTERS = ['status', 'severity', 'source'] as const;
type TaskFilter = (typeof FILTERS)[number];
const any = { value: '', label: CONSOLE_TEXTS.table.any };

function TaskFilters({ table }: { table: TableQueryControls<TaskFilter> }) {
  const { filters } = table.query;
  const hasFilters = Object.values(filters).some(Boolean);
  return (
    <Group role="search" aria-label={T.filters} align="flex-end" gap="sm">
      <NativeSelect
        label={T.status}
        size="sm"
        value={filters.status}
        onChange={(e) => table.setFilter('status', e.currentTarget.value)}
        data={[any, ...TASK_STATUSES.map((s) => ({ value: s, label: T.taskStatus[s] ?? s }))]}
      />
      <NativeSelect
        label={T.severity}
        size="sm"
        value={filters.severity}
        onChange={(e) => table.setFilter('severity', e.currentTarget.value)}
        data={[any, ...REMEDIATION_SEVERITIES.map((s) => ({ value: s, label: CONSOLE_TEXTS.severity[s] ?? s }))]}
      />
      <NativeSelect
        label={T.source}
        size="sm"
        value={filters.source}
        onChange={(e) => table.setFilter('source', e.currentTarget.value)}
        data={[any, ...SCANNER_SOURCES.map((s) => ({ value: s, label: T.sources[s] ?? s }))]}
      />
      {hasFilters && (
        <Button variant="subtle" size="sm" onClick={table.clearFilters}>
          {CONSOLE_TEXTS.table.clearFilters}
        </Button>
      )}
    </Group>
  );
}

/** The API's names of the table's filters (spec B section 7: `status:equals`, `severity:equals`, `source:equals`). */
function apiFilters(filters: Record<TaskFilter, string>) {
  const active = activeFilters(filters);
  return Object.fromEntries(Object.entries(active).map(([k, v]) => [`${k}:equals`, v]));
}

/**
 * /manage/tasks (admin only, shown while automated vulnerability remediation is off): the
 * zone's remediation tasks with status, severity and source filters, sorting (status also
 * sorts by severity, on the server), paging, execute, cancel, CSV download and delete.
 */
export function TasksPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const navigate = useNavigate();
  const table = useTableQuery(FILTERS);
  const { query } = table;
  const filters = apiFilters(query.filters);
  const tasks = useTasks(zoneId, { ...apiPaging(query), ...filters });
  const actions = useTaskActions(zoneId, can);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [isUploadOpen, setUploadOpen] = useState(false);
  const rows = tasks.data?.data ?? [];
  const total = tasks.data?.size ?? 0;
  const isZoneEmpty = tasks.isSuccess && !tasks.isPlaceholderData && total === 0 && Object.keys(filters).length === 0;
  // Only rows on screen can be deleted: a filter or page change must not delete unseen ones.
  const shownSelected = rows.filter((t) => selected.has(t.id)).map((t) => t.id);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        <Group gap="xs">
          <Button component={Link} variant="default" to={withZone(PATHS.taskBatches, zoneId)}>
            {T.batchesLink}
          </Button>
          {can('Task', 'create') && <Button onClick={() => setUploadOpen(true)}>{T.upload}</Button>}
        </Group>
      </Group>
      <Text c="dimmed" size="sm">
        {T.intro} {T.oneTime}
      </Text>
      {tasks.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {isZoneEmpty ? (
        <EmptyState
          py="xl"
          icon={<IconChecklist size={32} stroke={1.5} aria-hidden="true" />}
          withIndicatorBackground
          title={T.emptyTitle}
          description={T.emptyBody}
        />
      ) : (
        <>
          <Group justify="space-between" align="flex-end">
            <TaskFilters table={table} />
            {actions.canDelete && shownSelected.length > 0 && (
              <Button
                color="red"
                variant="light"
                onClick={() => actions.remove(shownSelected, () => setSelected(new Set()))}
              >
                {T.deleteSelected(shownSelected.length)}
              </Button>
            )}
          </Group>
          {tasks.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
          {tasks.data && (
            <TaskTable
              zoneId={zoneId}
              tasks={rows}
              actions={actions}
              sort={{ value: query.sort, onSort: table.toggleSort }}
              selection={actions.canDelete ? { ids: selected, onChange: setSelected } : undefined}
            />
          )}
          {tasks.data && (
            <TablePager
              empty={rows.length === 0 ? T.noMatch : null}
              page={query.page}
              limit={query.limit}
              total={total}
              onPage={table.setPage}
              onLimit={table.setLimit}
            />
          )}
        </>
      )}
      <UploadScanDialog
        opened={isUploadOpen}
        zoneId={zoneId}
        onClose={() => setUploadOpen(false)}
        onFinish={(batch) => {
          setUploadOpen(false);
          void navigate(withZone(pathTo(PATHS.taskBatch, { batchId: batch.id }), zoneId));
        }}
      />
    </Stack>
  );
}
