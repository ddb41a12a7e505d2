/**
 * A row of tabs (WAI-ARIA "tabs", selection follows focus): one Tab stop, the chosen tab; ← →
 * move to the previous and next tab (wrapping), Home and End to the first and last. `badge`
 * adds a tab's count after its name.
 */
import type { ReactNode } from 'react';

export function TabList<T extends string>({ label, tabs, current, onPick, badge }: { label: string; tabs: readonly T[]; current: T; onPick: (tab: T) => void; badge?: (tab: T) => ReactNode }) {
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
        <button key={t} role="tab" aria-selected={current === t} tabIndex={current === t ? 0 : -1} className={current === t ? 'on' : ''} onClick={() => onPick(t)}>
          {t}{badge?.(t)}
        </button>
      ))}
    </nav>
  );
}
