import { Text } from '@mantine/core';
import { CONSOLE_TEXTS } from '../texts';
import { Hint } from './Hint';

const SHOWN = 3;

/** CVE ids, the first three inline and the rest counted (all of them in a tooltip), in the text size around them. */
export function CveList({ cves }: { cves: readonly string[] }) {
  if (cves.length === 0) return <>—</>;
  const shown = cves.slice(0, SHOWN).join(', ');
  if (cves.length <= SHOWN) return <>{shown}</>;
  return (
    <Hint label={cves.join(', ')} multiline w={320} withArrow>
      <Text span inherit tabIndex={0}>
        {shown} {CONSOLE_TEXTS.moreCount(cves.length - SHOWN)}
      </Text>
    </Hint>
  );
}
