'use client';
import Button, { type ButtonProps } from '@mui/material/Button';
import CardActionArea, { type CardActionAreaProps } from '@mui/material/CardActionArea';
import Link, { type LinkProps } from '@mui/material/Link';
import NextLink from 'next/link';

/** A MUI Button that navigates with next/link; usable from Server Components. */
export function LinkButton(props: Omit<ButtonProps<typeof NextLink>, 'component'>) {
  return <Button component={NextLink} {...props} />;
}

/** A MUI Link that navigates with next/link; usable from Server Components. */
export function AppLink(props: Omit<LinkProps<typeof NextLink>, 'component'>) {
  return <Link component={NextLink} {...props} />;
}

/** A MUI CardActionArea that navigates with next/link (a whole card as one link); usable from Server Components. */
export function LinkCardArea(props: Omit<CardActionAreaProps<typeof NextLink>, 'component'>) {
  return <CardActionArea component={NextLink} {...props} />;
}
