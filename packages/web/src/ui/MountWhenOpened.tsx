import { Suspense, useState, type ReactNode } from 'react';

/**
 * Mounts a dialog that loads on demand (`lazy`) from the first time it is opened, and keeps it
 * mounted afterwards so it can play its closing transition and open again at once. The page's
 * first download then leaves out the dialog's code until someone asks for it.
 */
export function MountWhenOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [hasOpened, setHasOpened] = useState(opened);
  // Derived state, set while rendering (React's documented pattern): no effect, no extra frame.
  if (opened && !hasOpened) setHasOpened(true);
  return hasOpened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
