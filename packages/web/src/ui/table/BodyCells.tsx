import { Table } from '@mantine/core';
import type { ComponentProps } from 'react';

// Mantine's own classes for its table's rows and cells (`Table.classes`), and the attributes its
// `Table.Tr` sets under a table with row borders and hover highlighting (both on in our tables).
const TR = `${Table.classes.tr} mantine-Table-tr`;
const TD = `${Table.classes.td} mantine-Table-td`;

/**
 * A body row as a plain `<tr>` that looks as Mantine's `Table.Tr` does. A long list's rows are
 * drawn with these: each Mantine cell is a component resolving its props and styles, which for
 * a page of rows was most of the work of the render that shows them (issue 16).
 */
export function BodyRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr data-with-row-border data-hover className={className ? `${TR} ${className}` : TR} {...props} />;
}

/** A body cell as a plain `<td>` that looks as Mantine's `Table.Td` does. */
export function BodyCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={className ? `${TD} ${className}` : TD} {...props} />;
}
