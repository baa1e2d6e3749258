import { Alert, Anchor, Group, Loader, Stack, Text } from '@mantine/core';
import { TEXTS } from '@patchwell/core/texts';
import { useState } from 'react';
import { Link } from 'react-router';
import { PATHS } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { CONSOLE_TEXTS } from '../../../texts';
import { TablePager } from '../../../ui/table/TablePager';
import { ACTIVITY_LOG_TEXTS as T } from '../activity-log.texts';
import { useActivity } from '../activity.api';
import { ActivityTable } from './ActivityTable';

type Props = {
  zoneId: number;
  /** The object as the activity log names it (`policy` and its id, `device` and its id…). */
  object: { type: string; id: number | string };
  /** The table's accessible name. */
  label: string;
};

/**
 * One object's activity of the last 30 days, read from the zone's activity log
 * (`GET /api/events?object_type&object_id`), with a link to the full log filtered to it.
 */
export function ObjectActivity({ zoneId, object, label }: Props) {
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(25);
  const filter = { preset: 'last30days', object_type: object.type, object_id: String(object.id) };
  const events = useActivity(zoneId, { ...filter, page, limit });
  const fullLog = `${withZone(PATHS.reportsActivityLog, zoneId)}&${new URLSearchParams(filter).toString()}`;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {T.objectIntro}
        </Text>
        <Anchor component={Link} to={fullLog} size="sm">
          {T.openFullLog}
        </Anchor>
      </Group>
      {events.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {events.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {events.data && (
        <>
          <ActivityTable events={events.data.data} label={label} />
          <TablePager
            empty={events.data.data.length === 0 ? T.objectEmpty : null}
            page={page}
            limit={limit}
            total={events.data.size}
            onPage={setPage}
            onLimit={(next) => {
              setLimit(next);
              setPage(0);
            }}
          />
        </>
      )}
    </Stack>
  );
}
