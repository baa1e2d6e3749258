import { NavLink } from 'react-router';
import classes from './LinkTabs.module.css';

export type LinkTab = { label: string; to: string };

/**
 * Section navigation that looks like tabs but is made of links: each tab is its own
 * route, so the browser's history, deep links and screen readers all treat them as pages.
 */
export function LinkTabs({ tabs, label }: { tabs: LinkTab[]; label: string }) {
  return (
    <nav aria-label={label} className={classes.root}>
      <ul className={classes.list}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <NavLink to={tab.to} className={classes.tab}>
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
