/**
 * Ctrl/Cmd+S inside a dialog or panel saves what it edits (not the request behind it), as its Save
 * button does; the browser's "Save page" is kept from opening. One handler for the dialogs and
 * panels that edit something of their own (App.tsx's page-wide shortcut saves the open request).
 */
import type { KeyboardEvent } from 'react';

export function saveOnCtrlS(save: () => void): (e: KeyboardEvent) => void {
  return (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      save();
    }
  };
}
