import { DATE_RANGE_PRESETS, utcDay } from '@patchwell/core/reports/date-range';
import type { ZoneUser } from '@patchwell/core/users/users.schema';
import { Button, CloseButton, Group, NativeSelect, Pill, TextInput } from '@mantine/core';
import type { TableQueryControls } from '../../../ui/table/useTableQuery';
import { ACTIVITY_LOG_TEXTS as T, ACTIVITY_TYPES } from '../activity-log.texts';
import { presetOf, type ActivityFilter } from '../activity-filters';

export type ActivityFiltersProps = {
  table: TableQueryControls<ActivityFilter>;
  users: readonly ZoneUser[];
  dateErrors: Record<string, string[]>;
};

/** Date range (a preset, or a custom range of days), user, type and object. Every change returns to page 1. */
export function ActivityFilters({ table, users, dateErrors }: ActivityFiltersProps) {
  const { filters } = table.query;
  const preset = presetOf(filters.preset);
  const hasFilters = Object.values(filters).some(Boolean);
  const errorOf = (field: string) => dateErrors[field]?.join(' ');

  return (
    <Group role="search" aria-label={T.filters} align="flex-start" gap="sm" wrap="wrap">
      <NativeSelect
        label={T.dateRange}
        size="sm"
        value={preset}
        onChange={(e) => {
          const value = e.currentTarget.value;
          table.setFilter('preset', value === 'last30days' ? '' : value);
          // A custom range starts as the last seven days, to be narrowed or widened.
          const today = new Date();
          table.setFilter('startDate', value === 'custom' ? utcDay(new Date(today.getTime() - 6 * 86_400_000)) : '');
          table.setFilter('endDate', value === 'custom' ? utcDay(today) : '');
        }}
        data={DATE_RANGE_PRESETS.map((p) => ({ value: p, label: T.presets[p] }))}
      />
      {preset === 'custom' && (
        <>
          <TextInput
            label={T.startDate}
            size="sm"
            type="date"
            value={filters.startDate}
            error={errorOf('startDate')}
            onChange={(e) => table.setFilter('startDate', e.currentTarget.value)}
          />
          <TextInput
            label={T.endDate}
            size="sm"
            type="date"
            value={filters.endDate}
            error={errorOf('endDate')}
            onChange={(e) => table.setFilter('endDate', e.currentTarget.value)}
          />
        </>
      )}
      <NativeSelect
        label={T.user}
        size="sm"
        value={filters.user_id}
        onChange={(e) => table.setFilter('user_id', e.currentTarget.value)}
        data={[{ value: '', label: T.anyone }, ...users.map((u) => ({ value: String(u.id), label: u.email }))]}
      />
      <NativeSelect
        label={T.type}
        size="sm"
        value={filters.action}
        onChange={(e) => table.setFilter('action', e.currentTarget.value)}
        data={[{ value: '', label: T.anyType }, ...ACTIVITY_TYPES]}
      />
      {filters.object_type && (
        <Pill size="lg" mt={26}>
          <Group gap={4} wrap="nowrap">
            {T.objectFilter(filters.object_type, filters.object_id)}
            <CloseButton
              size="xs"
              aria-label={T.clearObject}
              onClick={() => {
                table.setFilter('object_type', '');
                table.setFilter('object_id', '');
              }}
            />
          </Group>
        </Pill>
      )}
      {hasFilters && (
        <Button variant="subtle" size="sm" mt={26} onClick={table.clearFilters}>
          {T.clearFilters}
        </Button>
      )}
    </Group>
  );
}
