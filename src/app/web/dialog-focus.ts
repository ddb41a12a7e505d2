/**
 * A dialog's hold on the keyboard (WAI-ARIA modal dialog): opened, it takes the focus (its own
 * autofocused field, else its first field, else its first button); Tab and Shift+Tab stay inside
 * it; closed, the focus goes back where it was (the button that opened it).
 */
import { useEffect, useRef } from 'react';

const FOCUSABLE = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

function focusables(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => e.offsetParent !== null || e === document.activeElement);
}

/** The ref for the dialog's element (the one with role="dialog"). */
export function useDialogFocus<T extends HTMLElement = HTMLDivElement>() {
  const ref = useRef<T>(null);
  // Read while rendering, before an autofocused field of the dialog takes the focus.
  const before = useRef<Element | null>(document.activeElement);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.contains(document.activeElement)) {
      const all = focusables(dialog);
      const field = all.find((e) => e.matches('input, select, textarea, [contenteditable="true"]'));
      (field ?? all[0] ?? dialog).focus();
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab') return;
      const all = focusables(dialog);
      if (all.length === 0) return e.preventDefault();
      const first = all[0]!;
      const last = all.at(-1)!;
      const inside = dialog.contains(document.activeElement);
      if (e.shiftKey && (!inside || document.activeElement === first)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (!inside || document.activeElement === last)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    const opener = before.current;
    return () => {
      document.removeEventListener('keydown', onKey);
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  return ref;
}

/**
 * Whether a modal dialog (one this hook holds: `aria-modal="true"`) is open: the page's own
 * shortcuts that act on what is behind it (Ctrl/Cmd+Enter sends the open request) then do nothing.
 */
export function modalDialogOpen(): boolean {
  return document.querySelector('[role="dialog"][aria-modal="true"]') !== null;
}
