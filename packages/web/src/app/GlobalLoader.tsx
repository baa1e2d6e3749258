import { useSyncExternalStore } from 'react';
import { useNavigation } from 'react-router';
import classes from './GlobalLoader.module.css';
import { globalLoader, type LoaderStore } from './loader';

/** A thin indeterminate bar at the top of the window while requests or navigations run. */
export function GlobalLoader({ store = globalLoader }: { store?: LoaderStore }) {
  const isBusy = useSyncExternalStore(store.subscribe, store.isVisible, store.isVisible);
  const navigation = useNavigation();
  if (!isBusy && navigation.state === 'idle') return null;
  // Decorative: pages announce their own content when it arrives.
  return <div className={classes.bar} aria-hidden="true" data-testid="global-loader" />;
}
