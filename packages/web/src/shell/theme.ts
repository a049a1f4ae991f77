import {
  Alert,
  Badge,
  createTheme,
  defaultVariantColorsResolver,
  Drawer,
  getDefaultZIndex,
  Menu,
  Modal,
  Notification,
  ScrollArea,
  localStorageColorSchemeManager,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Light and outline variants take their text colour from the per-scheme CSS variables app.css darkens for
 * AA contrast, instead of a fixed shade that is too pale on light backgrounds.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const resolved = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return resolved;
  if (input.variant === 'light') return { ...resolved, color: `var(--mantine-color-${parsed.color}-light-color)` };
  if (input.variant === 'outline')
    return {
      ...resolved,
      color: `var(--mantine-color-${parsed.color}-outline)`,
      border: `1px solid var(--mantine-color-${parsed.color}-outline)`,
    };
  return resolved;
};

/** A gray badge that is not an outline ("3 waiting", "Draft"): states a fact, not a status colour. */
const isNeutralBadge = (color: string | undefined, variant: string | undefined) =>
  color === 'gray' && (variant === undefined || variant === 'light' || variant === 'filled');

/**
 * What stacks over what: drawers, then notices, then dialogs. A notice about what was just done in a
 * drawer (a merge) shows over it; a dialog's question is never covered by a notice of an earlier step.
 */
export const layers = { drawer: getDefaultZIndex('modal') - 2, notices: getDefaultZIndex('modal') - 1 } as const;

export const theme = createTheme({
  variantColorResolver,
  components: {
    Alert: Alert.extend({ defaultProps: { closeButtonLabel: 'Dismiss' } }),
    // One neutral chip in both schemes (app.css): Mantine's gray is near-black in dark and washed out in light.
    Badge: Badge.extend({
      vars: (_theme, props) => ({
        root: isNeutralBadge(props.color, props.variant)
          ? {
              '--badge-bg': 'var(--app-neutral-badge-bg)',
              '--badge-color': 'var(--app-neutral-badge-color)',
              '--badge-bd': '1px solid var(--app-neutral-badge-border)',
            }
          : {},
      }),
    }),
    // A scrolling region is reachable by keyboard, so its content can be scrolled without a mouse.
    ScrollArea: ScrollArea.extend({ defaultProps: { viewportProps: { tabIndex: 0 } } }),
    // A menu holds only its items (Mantine's focus placeholder is a child a menu may not have): the first
    // item takes the focus when it opens.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, zIndex: layers.drawer } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } }),
  },
  primaryColor: 'teal',
  primaryShade: { light: 9, dark: 9 },
  defaultRadius: 'md',
  fontFamily: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  focusRing: 'auto',
  respectReducedMotion: true,
});

/** This browser's explicit light/dark/auto choice; until one is made the interface follows settings.dark_mode and the system. */
export const colorSchemeKey = 'rhizome-color-scheme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: colorSchemeKey });

export function hasStoredColorScheme(): boolean {
  return window.localStorage.getItem(colorSchemeKey) !== null;
}
