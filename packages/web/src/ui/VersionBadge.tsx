import { Badge } from '@mantine/core';

/** A package or patch version as the vendor writes it: `2.34-0ubuntu3.2`, not `2.34-0UBUNTU3.2`. */
export function VersionBadge({ version }: { version: string }) {
  return (
    <Badge variant="outline" color="gray" tt="none">
      {version}
    </Badge>
  );
}
