import { describe, expect, it } from 'vitest';
import { EDGE_PX, FLYOUT_OFFSET_PX, FLYOUT_REM, PANEL_REM, panelAlignOffset, typeaheadText } from './placement';

const REM = 16;
const needed = (PANEL_REM + FLYOUT_REM) * REM + FLYOUT_OFFSET_PX + EDGE_PX;

describe('panelAlignOffset', () => {
  it('keeps the panel under the button when the flyout fits beside it', () => {
    expect(panelAlignOffset(165, 1280, REM)).toBe(0);
    expect(panelAlignOffset(165, 165 + needed, REM)).toBe(0);
  });

  it('moves the panel left just enough for the flyout when the window is narrow', () => {
    const offset = panelAlignOffset(165, 700, REM);
    expect(offset).toBeLessThan(0);
    expect(165 + offset + needed).toBe(700);
  });

  it('never moves the panel past the window padding', () => {
    expect(panelAlignOffset(165, 500, REM)).toBe(EDGE_PX - 165);
    expect(panelAlignOffset(4, 500, REM)).toBe(0);
  });
});

describe('typeaheadText', () => {
  it('drops the leading emoji and space, including joined and variation-selector emoji', () => {
    expect(typeaheadText('😴 Sleep Enhancement')).toBe('Sleep Enhancement');
    expect(typeaheadText('🛠️ Stress Management Techniques')).toBe('Stress Management Techniques');
    expect(typeaheadText('Plain title')).toBe('Plain title');
    expect(typeaheadText('2-minute resets')).toBe('2-minute resets');
  });
});
