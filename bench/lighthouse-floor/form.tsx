// The login page's share of Mantine's styles, as the console loads them.
import '../../packages/web/src/app/mantine-styles';
import { MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SignInForm } from './SignInForm';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider defaultColorScheme="light">
      <SignInForm />
    </MantineProvider>
  </StrictMode>,
);
