import { NavLink } from 'react-router';
import classes from './LinkTabs.module.css';

/** `end`: active only on exactly its path (an index tab whose siblings are its subpaths). */
export type LinkTab = { label: string; to: string; end?: boolean };

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
            <NavLink to={tab.to} end={tab.end} className={classes.tab}>
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
