import type { BadgeProps, CSSVariablesResolver, MantineTheme, MantineThemeComponent } from '@mantine/core';
import { createTheme } from '@mantine/core';
import { texts } from '@/texts';

/** Mantine's close buttons carry no accessible name of their own; those the app uses get the German one. */
const closeButtonProps = { 'aria-label': texts.close };

/**
 * WCAG 2.2 AA asks 4.5 : 1 for text. Mantine's defaults miss it: white on its primary blue (shade 6)
 * is 3.55 : 1, its dimmed grey 3.32 : 1, its red for errors 3.3 : 1. One shade or two darker keeps the
 * look and passes: blue 8 takes white at 4.9 : 1, grey 7 reads at 8.6 : 1, red 9 at 5.6 : 1.
 */
export const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  // Plain objects where Mantine's `Component.extend` would do the same: an `extend` brings the component's
  // code (a Modal its scroll lock and focus trap) into the first chunk, which /login loads (bench/size).
  components: {
    // A light alert's title takes its colour (yellow 6 on yellow 0 is 2.7 : 1); the icon and the tint
    // still say which kind of alert it is.
    Alert: { styles: { title: { color: 'var(--mantine-color-text)' } } },
    // The same for a light badge: green 9 on its tint is 3.8 : 1; the text in the text colour reads
    // at 15 : 1, and the tint still tells draft, published and replaced apart at a glance.
    Badge: {
      vars: (_theme: MantineTheme, props: BadgeProps) =>
        props.variant === 'light' ? { root: { '--badge-color': 'var(--mantine-color-text)' } } : { root: {} },
    } satisfies MantineThemeComponent,
    Modal: { defaultProps: { closeButtonProps } },
    Notification: { defaultProps: { closeButtonProps } },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolved.colors.gray[7] ?? '#495057',
    '--mantine-color-error': resolved.colors.red[9] ?? '#c92a2a',
    // A hovered subtle button (the header's links) took blue 8 on blue 2, 4.0 : 1; on blue 0 it is 5.5 : 1.
    '--mantine-color-blue-light-hover': resolved.colors.blue[0] ?? '#e7f5ff',
  },
  dark: {},
});
