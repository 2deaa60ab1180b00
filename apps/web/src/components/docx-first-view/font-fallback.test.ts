import { describe, expect, it } from 'vitest';
import { withFallbackFont, withFallbackFonts } from './font-fallback';

describe('withFallbackFont', () => {
  it.each([
    ['Calibri', 'Calibri, Arial, sans-serif'],
    ["'Calibri Light'", "'Calibri Light', Arial, sans-serif"],
    ['Times New Roman', "Times New Roman, 'Times New Roman', serif"],
    ['"Cambria", Calibri', '"Cambria", Calibri, \'Times New Roman\', serif'],
    ['var(--docx-minorHAnsi-font)', 'var(--docx-minorHAnsi-font), Arial, sans-serif'],
  ])('gives %s the fallback of its kind', (stack, expected) => {
    expect(withFallbackFont(stack)).toBe(expected);
  });

  it.each(['Arial, sans-serif', 'Courier New, monospace', 'serif', ''])('leaves %j as it is', (stack) => {
    expect(withFallbackFont(stack)).toBe(stack);
  });
});

describe('withFallbackFonts', () => {
  it('gives every declaration of a style sheet its fallback and leaves the rest alone', () => {
    const css =
      '.docx span {\r\n  font-family: Calibri;\r\n  font-size: 10.50pt;\r\n}\np.t span { font-family: Georgia }';
    expect(withFallbackFonts(css)).toBe(
      ".docx span {\r\n  font-family: Calibri, Arial, sans-serif;\r\n  font-size: 10.50pt;\r\n}\np.t span { font-family: Georgia, 'Times New Roman', serif}",
    );
  });
});
