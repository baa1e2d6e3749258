import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

export type Fact = { label: string; value: ReactNode };

/** Label and value pairs as a two-column table (row headers for screen readers). */
export function FactTable({ facts, label }: { facts: Fact[]; label: string }) {
  return (
    <Table variant="vertical" withTableBorder aria-label={label}>
      <Table.Tbody>
        {facts.map((f) => (
          <Table.Tr key={f.label}>
            <Table.Th scope="row" w={220}>
              {f.label}
            </Table.Th>
            <Table.Td>{f.value === null || f.value === undefined || f.value === '' ? '—' : f.value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
