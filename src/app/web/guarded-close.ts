/** Closing a dialog that holds something not yet saved: ×, Esc or a click beside it asks first. */
import { useEffect, useRef } from 'react';

/**
 * The dialog's close: with `unsaved`, only when the user confirms `question` (Cancel keeps the
 * dialog open). Esc is caught before the app's own Esc handler, which closes any dialog at once.
 */
export function useGuardedClose(unsaved: boolean, question: string, onClose: () => void): () => void {
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
