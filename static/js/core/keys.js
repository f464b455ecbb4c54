// Keyboard play (issue 7). A game's board is one tab stop (roving tabindex): the arrow keys move the
// cursor over the cells, Enter or Space press the cell — the same path as a click or a tap. This module adds
// what is not tied to a focused cell: Escape cancels a selection, or else hides the screen's overlay (the last
// battle's card), wherever the focus is (a dialog's own Escape closes the dialog first).

/**
 * Page-wide keys of the game screen.
 * @param {{clearSelection: () => void, sel: object|null, root: HTMLElement, overlay?: HTMLElement,
 *          hideOverlay?: () => void}} screen  a screen with an `overlay` gives its `hideOverlay` too
 * @returns {() => void} removes the listener
 */
export function bindBoardKeys(screen) {
  const onKey = (ev) => {
    if (!screen.root.isConnected) return document.removeEventListener("keydown", onKey);
    if (ev.key !== "Escape" || ev.defaultPrevented || document.querySelector("dialog[open]")) return;
    if (screen.sel) {
      ev.preventDefault();
      screen.clearSelection();
    } else if (screen.overlay && !screen.overlay.hidden) {
      ev.preventDefault();
      screen.hideOverlay(); // the last battle's card: its ✕ button does the same
    }
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
