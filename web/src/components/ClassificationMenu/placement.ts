// Where the wide dropdown opens so that a category's flyout fits beside it. The panel opens under
// the button, aligned with its start; when the window is too narrow for the panel and a flyout side
// by side from there (about 577–760 px), the panel moves left as far as needed (never past the
// window's padding), so the flyout on its right has room. The flyout's own width is capped by the
// room Radix measures (`--radix-popper-available-width`), so it never leaves the window.

/** Panel width, flyout width it makes room for, flyout offset and window padding, in rem. */
export const PANEL_REM = 16;
export const FLYOUT_REM = 17;
export const FLYOUT_OFFSET_PX = 4;
export const EDGE_PX = 8;

/**
 * The `alignOffset` (≤ 0, in px) for a panel aligned with the start of a button at `buttonLeft`, in
 * a window `windowWidth` px wide, with `rem` px to the rem.
 */
export function panelAlignOffset(buttonLeft: number, windowWidth: number, rem: number): number {
  const needed = (PANEL_REM + FLYOUT_REM) * rem + FLYOUT_OFFSET_PX + EDGE_PX;
  const idealLeft = windowWidth - needed;
  const left = Math.max(EDGE_PX, Math.min(buttonLeft, idealLeft));
  return Math.min(0, Math.round(left - buttonLeft));
}

/** The words a menu item is found by when typing its first letters: its title without the emoji. */
export function typeaheadText(title: string): string {
  return title.replace(/^[^\p{L}\p{N}]+/u, '');
}
