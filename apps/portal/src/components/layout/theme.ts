'use client';
import { createTheme } from '@mui/material/styles';

/**
 * The portal's one theme. CSS variables plus a class on <html> let InitColorSchemeScript pick
 * the saved or system mode before the first paint, so the page never flashes the wrong mode.
 */
export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'class' },
  colorSchemes: {
    light: {
      palette: {
        primary: { main: '#0b5cad' },
        secondary: { main: '#6b4fbb' },
        // MUI's default warning and info colours are under 4.5:1 as text on white (outlined chips,
        // links in alerts); these darker ones pass on both backgrounds.
        warning: { main: '#b45309' },
        info: { main: '#01579b' },
        background: { default: '#f5f7fa', paper: '#ffffff' },
      },
    },
    dark: {
      palette: {
        primary: { main: '#7ab8ff' },
        secondary: { main: '#b69cff' },
        background: { default: '#0f1419', paper: '#161d25' },
      },
    },
  },
  shape: { borderRadius: 8 },
  typography: {
    // No web fonts: the portal must work offline and render instantly.
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '2rem', fontWeight: 600 },
    h2: { fontSize: '1.4rem', fontWeight: 600 },
    h3: { fontSize: '1.1rem', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiCard: { defaultProps: { variant: 'outlined' } },
    MuiPaper: { defaultProps: { variant: 'outlined' } },
    // MUI greys out helper text under a disabled field to 2.67:1; the reason a field is disabled
    // must stay readable (WCAG AA asks 4.5:1), so it keeps the secondary text colour.
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: theme.vars?.palette.text.secondary } }),
      },
    },
  },
});
