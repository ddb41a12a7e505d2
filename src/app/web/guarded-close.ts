/** Closing a dialog that holds something not yet saved: ×, Esc or a click beside it asks first. */
import { useEffect, useRef } from 'react';

/**
 * While `unsaved`, closing or reloading the tab asks first (the browser's own question), as it
 * does for a request's pending save: a load test, variables or a server edited and not saved
 * are lost with the page otherwise.
 */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const onLeave = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [unsaved]);
}

/**
 * The dialog's close: with `unsaved`, only when the user confirms `question` (Cancel keeps the
 * dialog open). Esc is caught before the app's own Esc handler, which closes any dialog at once.
 */
export function useGuardedClose(unsaved: boolean, question: string, onClose: () => void): () => void {
  useLeaveGuard(unsaved);
  const close = () => {
    if (unsaved && !window.confirm(question)) return;
    onClose();
  };
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      closeRef.current();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  return close;
}
