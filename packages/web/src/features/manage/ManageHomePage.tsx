import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBook2, IconBrandApple, IconClipboardList, IconFolders, IconShieldCheck } from '@tabler/icons-react';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { NavCard } from '../../ui/NavCard';
import { usePageTitle } from '../../ui/usePageTitle';
import { mainNavItems } from '../shell/nav-items';
import { MANAGE_TEXTS } from './manage.texts';

const ICONS = [IconShieldCheck, IconFolders, IconClipboardList, IconBook2];
const DESCRIPTIONS: Record<string, string> = {
  [CONSOLE_TEXTS.nav.policies]: 'Patch, worklet and required-software policies and their schedules.',
  [CONSOLE_TEXTS.nav.groups]: 'Device groups, their scan intervals and the policies they run.',
  [CONSOLE_TEXTS.nav.tasks]: 'Upload vulnerability scans, review their batches, and execute the remediation tasks.',
  [CONSOLE_TEXTS.nav.remediations]:
    'Upload vulnerability scans, see every CVE in this zone with overdue devices, and remediate them.',
  [CONSOLE_TEXTS.nav.workletCatalog]: 'Ready-made worklets to turn into policies.',
};

/** /manage, titled System: a card for each part of Manage, and the macOS guide. */
export function ManageHomePage() {
  usePageTitle('System');
  const { profile, zoneId } = useShell();
  const manage = mainNavItems(profile, zoneId).find((i) => i.children)?.children ?? [];
  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        System
      </Title>
      <Text c="dimmed">Policies, groups and remediation for this zone.</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        {manage.map((item, i) => {
          const Icon = ICONS[i] ?? IconShieldCheck;
          return (
            <NavCard
              key={item.to}
              icon={<Icon size={22} />}
              label={item.label}
              description={DESCRIPTIONS[item.label]}
              to={item.to}
              buttonLabel={CONSOLE_TEXTS.open}
            />
          );
        })}
        <NavCard
          icon={<IconBrandApple size={22} />}
          label={MANAGE_TEXTS.macCardLabel}
          description={MANAGE_TEXTS.macCardDescription}
          to={withZone(PATHS.getStartedMacOs, zoneId)}
          buttonLabel={MANAGE_TEXTS.macCardButton}
        />
      </SimpleGrid>
    </Stack>
  );
}
