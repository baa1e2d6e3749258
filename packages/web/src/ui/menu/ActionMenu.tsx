import { lazy } from 'react';
import { LoadOnUse } from '../LoadOnUse';
import type { ActionMenuProps } from './menu-entry';

const loadMenu = () => import('./ActionMenuLoaded');
const ActionMenuLoaded = lazy(() => loadMenu().then((m) => ({ default: m.ActionMenuLoaded })));

/**
 * A menu of actions behind a button (row menus, the account and help menus): the button alone
 * until it is first used, then Mantine's Menu, opened (ui/LoadOnUse.tsx).
 */
export function ActionMenu(props: ActionMenuProps) {
  return (
    <LoadOnUse trigger={props.target} popup="menu" load={loadMenu}>
      <ActionMenuLoaded {...props} />
    </LoadOnUse>
  );
}
