/**
 * A row of tabs (WAI-ARIA "tabs", selection follows focus): one Tab stop, the chosen tab; ← →
 * move to the previous and next tab (wrapping), Home and End to the first and last. `badge`
 * adds a tab's count after its name. `panel`: the id of the element showing the chosen tab's part,
 * which `tabPanel` makes its tab panel (a screen reader says "Headers tab panel" on entering it).
 */
import type { ReactNode } from 'react';

function tabId(panel: string, tab: string): string {
  return `${panel}-tab-${tab.replace(/\W+/g, '-')}`;
}

/** The attributes of the element that shows the chosen tab's part: `panel` is its id, as given to TabList. */
export function tabPanel(panel: string, current: string) {
  return { id: panel, role: 'tabpanel', 'aria-labelledby': tabId(panel, current) } as const;
}

export function TabList<T extends string>({ label, tabs, current, onPick, badge, panel }: { label: string; tabs: readonly T[]; current: T; onPick: (tab: T) => void; badge?: (tab: T) => ReactNode; panel?: string }) {
  const onKeyDown = (e: React.KeyboardEvent<HTMLElement>) => {
    const at = tabs.indexOf(current);
    const to = e.key === 'ArrowRight' ? (at + 1) % tabs.length : e.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    onPick(tabs[to]!);
    (e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[to])?.focus();
  };
  return (
    <nav className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <button key={t} id={panel && tabId(panel, t)} aria-controls={panel && current === t ? panel : undefined} role="tab" aria-selected={current === t} tabIndex={current === t ? 0 : -1} className={current === t ? 'on' : ''} onClick={() => onPick(t)}>
          {t}{badge?.(t)}
        </button>
      ))}
    </nav>
  );
}
