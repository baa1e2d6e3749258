import { BILLING_PAGE_TEXTS as T } from '@patchwell/core/billing/billing.texts';
import { formatCents } from '@patchwell/core/billing/pricing';
import { Anchor, Group, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorText } from '../../../api/error-text';
import { guardCsvDownload } from '../../../ui/CsvDownloadButton';
import { invoiceHref, useInvoices } from '../billing.api';

const PAGE_SIZE = 25;

/** The zone's invoices, newest first, each exported as PDF or CSV. */
export function BillingHistory({ zoneId }: { zoneId: number }) {
  const [page, setPage] = useState(0);
  const invoices = useInvoices(zoneId, page);
  const rows = invoices.data?.data ?? [];
  const pages = Math.ceil((invoices.data?.size ?? 0) / PAGE_SIZE);
  return (
    <Stack gap="sm">
      <Title order={3}>{T.historyTitle}</Title>
      {invoices.isPending ? (
        <Loader size="sm" role="progressbar" aria-label={T.historyTitle} />
      ) : invoices.isError ? (
        <Text c="red">{errorText(invoices.error)}</Text>
      ) : rows.length === 0 ? (
        <Text size="sm">{T.historyEmpty}</Text>
      ) : (
        <Table aria-label={T.historyTitle} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{T.invoice}</Table.Th>
              <Table.Th>{T.period}</Table.Th>
              <Table.Th>{T.deviceDays}</Table.Th>
              <Table.Th>{T.total}</Table.Th>
              <Table.Th>{T.export}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((i) => (
              <Table.Tr key={i.id}>
                <Table.Td>{i.number}</Table.Td>
                <Table.Td>
                  {i.period_start} – {i.period_end}
                </Table.Td>
                <Table.Td>{i.device_days}</Table.Td>
                <Table.Td>{formatCents(i.total_cents)}</Table.Td>
                <Table.Td>
                  <Group gap="sm">
                    {(['pdf', 'csv'] as const).map((format) => (
                      <Anchor
                        key={format}
                        href={invoiceHref(zoneId, i.id, format)}
                        download
                        onClick={guardCsvDownload}
                        aria-label={`${i.number} ${format.toUpperCase()}`}
                      >
                        {format.toUpperCase()}
                      </Anchor>
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {pages > 1 && <Pagination total={pages} value={page + 1} onChange={(p) => setPage(p - 1)} />}
    </Stack>
  );
}
