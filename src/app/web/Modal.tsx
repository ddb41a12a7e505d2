/**
 * The one modal shell of the app's dialogs (WAI-ARIA modal dialog): the backdrop, where a click
 * closes; the dialog named `label`, holding the keyboard while open (dialog-focus.ts); Esc
 * closing it; and the title bar with its × (`title`, else the label). `onClose` is the dialog's
 * own close: a dialog holding edits passes its guarded close (guarded-close.ts), which asks first.
 * While a write of the page waits for another Ferry process's workspace lock, the dialog says so
 * under its title (lock-wait.ts): every dialog that writes gets it, none has its own copy.
 */
import type { KeyboardEvent, ReactNode } from 'react';
import { useDialogFocus } from './dialog-focus.js';
import { useLockWait } from './lock-wait.js';

export function Modal({ label, title, className, onClose, onKeyDown, children }: {
  label: string;
  title?: ReactNode;
  /** More classes of the dialog element (`wide`, `history`…). */
  className?: string;
  onClose: () => void;
  /** The dialog's own keys (Ctrl/Cmd+S saves: save-shortcut.ts). */
  onKeyDown?: (e: KeyboardEvent<HTMLDivElement>) => void;
  children: ReactNode;
}) {
  const ref = useDialogFocus();
  // A write of this dialog waiting for another process's lock: said here, where the user looks (the page's notice is behind the backdrop).
  const lockWait = useLockWait();
  const keys = (e: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(e);
    // A guarded close took Esc already (it asks first); else the dialog closes, as its × does.
    if (e.key !== 'Escape' || e.isDefaultPrevented() || e.nativeEvent.defaultPrevented) return;
    e.preventDefault();
    onClose();
  };
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div className={className ? `dialog ${className}` : 'dialog'} role="dialog" aria-modal="true" ref={ref} aria-label={label} onClick={(e) => e.stopPropagation()} onKeyDown={keys}>
        <header><h3>{title ?? label}</h3><button className="icon" aria-label="Close" onClick={onClose}>×</button></header>
        {lockWait && <p className="notice lock-wait" role="status">{lockWait}</p>}
        {children}
      </div>
    </div>
  );
}
