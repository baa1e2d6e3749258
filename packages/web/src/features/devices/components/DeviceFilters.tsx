import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import type { TableQueryControls } from '../../../ui/table/useTableQuery';
import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import type { DeviceFilter } from '../device-filters';
import { DASHBOARD_CRITICAL_DAYS } from '@patchwell/core/reports/dashboard.constants';

const T = CONSOLE_TEXTS.devices;
const any = { value: '', label: CONSOLE_TEXTS.table.any };

export type DeviceFiltersProps = {
  table: TableQueryControls<DeviceFilter>;
  groups: readonly ServerGroup[];
};

/** The device table's filters. The search is debounced; every filter change returns to page 1. */
export function DeviceFilters({ table, groups }: DeviceFiltersProps) {
  const { filters } = table.query;
  const [tagInput, setTagInput] = useState(filters.tag);
  // The URL's tag changed under the box (back button, a link): show it.
  const [shownTag, setShownTag] = useState(filters.tag);
  if (shownTag !== filters.tag) {
    setShownTag(filters.tag);
    setTagInput(filters.tag);
  }
  const commitTag = () => {
    if (tagInput.trim() !== filters.tag) table.setFilter('tag', tagInput.trim());
  };
  const select = (name: DeviceFilter, label: string, data: { value: string; label: string }[]) => (
    <NativeSelect
      label={label}
      size="sm"
      value={filters[name]}
      onChange={(e) => table.setFilter(name, e.currentTarget.value)}
      data={[any, ...data]}
    />
  );
  const hasFilters = Object.values(filters).some(Boolean) || table.searchInput !== '';

  return (
    <Group role="search" aria-label={T.filters} align="flex-end" gap="sm" wrap="wrap">
      <TextInput
        label={T.search}
        size="sm"
        type="search"
        leftSection={<IconSearch size={14} aria-hidden="true" />}
        value={table.searchInput}
        onChange={(e) => table.setSearchInput(e.currentTarget.value)}
      />
      {select(
        'group',
        T.group,
        groups.map((g) => ({ value: String(g.id), label: g.name })),
      )}
      {select('os_family', T.osFamily, [
        { value: 'windows', label: CONSOLE_TEXTS.os.windows! },
        { value: 'mac', label: CONSOLE_TEXTS.os.mac! },
        { value: 'linux', label: CONSOLE_TEXTS.os.linux! },
      ])}
      {select('status', T.status, [
        { value: 'online', label: T.online },
        { value: 'offline', label: T.offline },
      ])}
      {select('needs_reboot', T.needsReboot, [
        { value: 'true', label: T.yes },
        { value: 'false', label: T.no },
      ])}
      {select('compliance', T.compliance, [
        { value: 'compliant', label: CONSOLE_TEXTS.compliance.compliant! },
        { value: 'pending', label: CONSOLE_TEXTS.compliance.pending! },
        { value: 'needs_attention', label: CONSOLE_TEXTS.compliance.needs_attention! },
      ])}
      {select('critical_older_than', T.criticalPatches, [
        { value: String(DASHBOARD_CRITICAL_DAYS), label: T.criticalOlderThan(DASHBOARD_CRITICAL_DAYS) },
      ])}
      <TextInput
        label={T.tag}
        size="sm"
        value={tagInput}
        onChange={(e) => setTagInput(e.currentTarget.value)}
        onBlur={commitTag}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commitTag();
        }}
      />
      {hasFilters && (
        <Button
          variant="subtle"
          size="sm"
          onClick={() => {
            setTagInput('');
            table.clearFilters();
          }}
        >
          {CONSOLE_TEXTS.table.clearFilters}
        </Button>
      )}
    </Group>
  );
}
