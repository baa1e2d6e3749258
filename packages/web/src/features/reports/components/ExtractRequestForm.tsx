import { Button, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import {
  addDays,
  DATE_RANGE_PRESETS,
  REPORT_MAX_DAYS_BACK,
  resolveDateRange,
  utcDay,
  type DateRangePreset,
} from '@patchwell/core/reports/date-range';
import { DATA_EXTRACT_KINDS, type DataExtractKind } from '@patchwell/core/reports/extracts.schema';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../../api/errors';
import { serverFieldErrors } from '../../../api/field-errors';
import { notify } from '../../../ui/notify';
import { reportKeys, requestDataExtract } from '../reports.api';
import { REPORTS_TEXTS } from '../reports.texts';

const T = REPORTS_TEXTS.extracts;

/**
 * Asks for an extract: what, and over which range (a preset, or custom days up to 90 back,
 * checked here with the server's own rule before sending).
 */
export function ExtractRequestForm({ zoneId }: { zoneId: number }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<DataExtractKind>('patch_history');
  const [preset, setPreset] = useState<DateRangePreset>('last7days');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isSending, setSending] = useState(false);
  const today = new Date();
  const isCustom = preset === 'custom';

  const onSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = { kind, preset, ...(isCustom ? { startDate, endDate } : {}) };
    const checked = resolveDateRange(body, new Date());
    if (checked.errors) {
      setErrors(Object.fromEntries(Object.entries(checked.errors).map(([k, v]) => [k, v.join(' ')])));
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await requestDataExtract(zoneId, body);
      notify.success(T.requested);
      await queryClient.invalidateQueries({ queryKey: reportKeys.extracts(zoneId, {}).slice(0, 3) });
    } catch (error) {
      if (isApiError(error, 400)) setErrors(serverFieldErrors(error));
      else await notify.apiError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} aria-label={T.request} noValidate>
      <Stack gap="sm">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <NativeSelect
            label={T.kind}
            size="sm"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as DataExtractKind)}
            data={DATA_EXTRACT_KINDS.map((k) => ({ value: k, label: T.kinds[k] }))}
            error={errors.kind}
          />
          <NativeSelect
            label={T.range}
            size="sm"
            value={preset}
            onChange={(e) => setPreset(e.currentTarget.value as DateRangePreset)}
            data={DATE_RANGE_PRESETS.map((p) => ({ value: p, label: T.presets[p] ?? p }))}
            error={errors.preset}
          />
          {isCustom && (
            <>
              <TextInput
                type="date"
                label={T.startDate}
                size="sm"
                required
                value={startDate}
                min={utcDay(addDays(today, -REPORT_MAX_DAYS_BACK))}
                max={utcDay(today)}
                onChange={(e) => setStartDate(e.currentTarget.value)}
                error={errors.startDate}
              />
              <TextInput
                type="date"
                label={T.endDate}
                size="sm"
                required
                value={endDate}
                min={utcDay(addDays(today, -REPORT_MAX_DAYS_BACK))}
                max={utcDay(today)}
                onChange={(e) => setEndDate(e.currentTarget.value)}
                error={errors.endDate}
              />
            </>
          )}
        </Group>
        <Group>
          <Button type="submit" loading={isSending}>
            {T.request}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
