import { ACTIVITY_COUNT_CAP } from '@patchwell/core/activity/activity.schema';
import { LOCALE } from '@patchwell/core/constants';
import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { TEXTS } from '@patchwell/core/texts';
import { useState } from 'react';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { TablePager } from '../../ui/table/TablePager';
import { apiPaging } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { useZoneUsers } from '../users/users.api';
import { ActivityFilters } from './components/ActivityFilters';
import { ActivityTable } from './components/ActivityTable';
import { ACTIVITY_FILTERS, activityQueryOf } from './activity-filters';
import { ACTIVITY_LOG_TEXTS as T } from './activity-log.texts';
import { activityCsvHref, useActivity } from './activity.api';

/** /reports/activity-log: the zone's audit trail, filtered by date range, user, type and object; exportable as CSV. */
export function ActivityLogPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const table = useTableQuery(ACTIVITY_FILTERS);
  const { query: tableQuery } = table;
  // "Today" is the browser's as the page opens; the server checks the range against its own clock again.
  const [now] = useState(() => new Date());
  const { query, dateErrors } = activityQueryOf(tableQuery.filters, now);
  const isRangeValid = Object.keys(dateErrors).length === 0;
  const { page, limit } = apiPaging(tableQuery);
  const events = useActivity(zoneId, { ...query, page, limit }, isRangeValid);
  const users = useZoneUsers(zoneId);
  const rows = events.data?.data ?? [];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>{T.title}</Title>
          <Text size="sm" c="dimmed">
            {T.intro}
          </Text>
        </Stack>
        <Button
          component="a"
          href={activityCsvHref(zoneId, query)}
          download
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          disabled={!isRangeValid}
        >
          {T.exportCsv}
        </Button>
      </Group>
      <ActivityFilters table={table} users={users.data ?? []} dateErrors={dateErrors} />
      {!isRangeValid && (
        <Text size="sm" c="dimmed" role="status">
          {T.fixDates}
        </Text>
      )}
      {isRangeValid && events.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {isRangeValid && events.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {isRangeValid && events.data && (
        <>
          <ActivityTable events={rows} />
          {events.data.size_capped && (
            <Text size="sm" c="dimmed" role="status">
              {T.capped(ACTIVITY_COUNT_CAP.toLocaleString(LOCALE))}
            </Text>
          )}
          <TablePager
            empty={rows.length === 0 ? T.empty : null}
            page={tableQuery.page}
            limit={tableQuery.limit}
            total={events.data.size}
            onPage={table.setPage}
            onLimit={table.setLimit}
          />
        </>
      )}
    </Stack>
  );
}
