'use client';
import Button, { type ButtonProps } from '@mui/material/Button';
import NextLink from 'next/link';

/** A MUI Button that navigates with next/link; usable from Server Components. */
export function LinkButton(props: Omit<ButtonProps<typeof NextLink>, 'component'>) {
  return <Button component={NextLink} {...props} />;
}
