import { Badge, Table } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { Providers } from '../app/Providers';
import { LightBadge } from './LightBadge';
import { BodyCell, BodyRow } from './table/BodyCells';

/** An element as comparable data: tag, attributes (style parsed) and children, in any attribute order. */
function shape(el: Element): unknown {
  const attrs = Object.fromEntries(
    [...el.attributes]
      .filter((a) => a.name !== 'style')
      .map((a) => [a.name, a.name === 'class' ? a.value.split(/\s+/).sort().join(' ') : a.value]),
  );
  const style =
    el instanceof HTMLElement ? Object.fromEntries([...el.style].map((p) => [p, el.style.getPropertyValue(p)])) : {};
  return {
    tag: el.tagName,
    attrs,
    style,
    text: el.children.length ? undefined : el.textContent,
    children: [...el.children].map(shape),
  };
}

// The default env: Mantine's static classes (mantine-Badge-root…) as the console renders them.
const inProviders = (node: ReactNode) => render(<Providers>{node}</Providers>).container;

describe('the plain stand-ins for Mantine components on long lists', () => {
  it('LightBadge renders what Mantine’s light Badge renders, label shown whole', () => {
    for (const color of ['green', 'gray', 'red', 'dark']) {
      const mantine = inProviders(
        <Badge color={color} variant="light" styles={{ label: { overflow: 'visible' } }}>
          Online
        </Badge>,
      ).lastElementChild!;
      const plain = inProviders(<LightBadge color={color}>Online</LightBadge>).lastElementChild!;
      expect(shape(plain)).toEqual(shape(mantine));
    }
  });

  it('BodyRow and BodyCell render what Table.Tr and Table.Td render in a table with row borders and hover', () => {
    const table = (row: ReactNode) =>
      inProviders(
        <Table highlightOnHover>
          <Table.Tbody>{row}</Table.Tbody>
        </Table>,
      ).querySelector('tbody')!.firstElementChild!;
    const mantine = table(
      <Table.Tr data-index={0}>
        <Table.Td>web-1</Table.Td>
      </Table.Tr>,
    );
    const plain = table(
      <BodyRow data-index={0}>
        <BodyCell>web-1</BodyCell>
      </BodyRow>,
    );
    expect(shape(plain)).toEqual(shape(mantine));
  });
});
