import { Anchor, Box, Center, Container, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { ENTRY_TEXTS } from '../texts.entry';
import { Logo } from '../ui/Logo';
import { PATHS } from './paths';

/** The frame of public pages: logo, the page in a narrow column, copyright. */
export function PlainFrame({ children, width = 440 }: { children: ReactNode; width?: number }) {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }} bg="gray.0">
      <Box component="header" py="lg">
        <Center>
          <Anchor component={Link} to={PATHS.login} aria-label={ENTRY_TEXTS.homeLink} underline="never">
            <Logo size={32} />
          </Anchor>
        </Center>
      </Box>
      <Container component="main" id="main" size={width} w="100%" style={{ flex: 1 }} px="md" pb="xl">
        {children}
      </Container>
      <Box component="footer" py="md">
        <Text size="xs" c="dimmed" ta="center">
          {ENTRY_TEXTS.footer}
        </Text>
      </Box>
    </Box>
  );
}

/** Layout route for the public pages (spec A section 2: plain layout). */
export function PlainLayout() {
  return (
    <PlainFrame>
      <Outlet />
    </PlainFrame>
  );
}

/** The plain layout at full width, no banners: the remote-control page (spec B section 2). */
export function FullPlainLayout() {
  return (
    <PlainFrame width={1440}>
      <Outlet />
    </PlainFrame>
  );
}

/** Wider plain layout (404, placeholders of public routes). */
export function WidePlainLayout() {
  return (
    <PlainFrame width={720}>
      <Outlet />
    </PlainFrame>
  );
}
