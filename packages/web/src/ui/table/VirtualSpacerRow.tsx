/**
 * Stands for the rows a virtualised table body leaves out above or below the rendered
 * ones, keeping the scroll height; hidden from assistive technology.
 */
export function VirtualSpacerRow({ height, colSpan }: { height: number; colSpan: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" data-virtual-spacer="">
      <td colSpan={colSpan} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}
