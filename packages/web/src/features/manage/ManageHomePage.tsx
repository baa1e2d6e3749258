import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBook2, IconClipboardList, IconFolders, IconShieldCheck } from '@tabler/icons-react';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { NavCard } from '../../ui/NavCard';
import { usePageTitle } from '../../ui/usePageTitle';
import { mainNavItems } from '../shell/nav-items';

const ICONS = [IconShieldCheck, IconFolders, IconClipboardList, IconBook2];
const DESCRIPTIONS: Record<string, string> = {
  [CONSOLE_TEXTS.nav.policies]: 'Patch, worklet and required-software policies and their schedules.',
  [CONSOLE_TEXTS.nav.groups]: 'Device groups, their scan intervals and the policies they run.',
  [CONSOLE_TEXTS.nav.tasks]: 'Remediation tasks from vulnerability scan imports.',
  [CONSOLE_TEXTS.nav.remediations]: 'Vulnerability remediation batches from your scanner.',
  [CONSOLE_TEXTS.nav.workletCatalog]: 'Ready-made worklets to turn into policies.',
};

/** /manage, titled System: a card for each part of Manage. */
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
      </SimpleGrid>
    </Stack>
  );
}
