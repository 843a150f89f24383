'use client';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { StorageFormValues } from '../storage-form-model';
import type { StorageFormController } from './use-storage-form';

type TextFieldName = 'name' | 'application' | 'allowedIpRanges';
type SwitchFieldName =
  'publicNetworkAccess' | 'hierarchicalNamespace' | 'sftpEnabled' | 'nfsv3Enabled' | 'httpsOnly' | 'sharedKeyAccess';
type SelectFieldName = {
  [F in keyof StorageFormValues]: StorageFormValues[F] extends string ? F : never;
}[keyof StorageFormValues];

/** A titled group of fields; the legend names the group for assistive technology. */
export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </Box>
  );
}

type ExtraTextProps = Omit<TextFieldProps, 'value' | 'onChange' | 'onBlur' | 'error' | 'helperText' | 'select'>;

/** A text field bound to the form: its problem replaces the helper text while there is one. */
export function FormTextField({
  form,
  field,
  helper,
  ...props
}: { form: StorageFormController; field: TextFieldName; helper: string } & ExtraTextProps) {
  const error = form.errorFor(field);
  return (
    <TextField
      fullWidth
      {...props}
      name={field}
      value={form.values[field]}
      onChange={(event) => form.change(field, event.target.value)}
      onBlur={() => form.touch(field)}
      error={Boolean(error)}
      helperText={error ?? helper}
    />
  );
}

export interface SelectOption {
  value: string;
  label?: string;
  disabled?: boolean;
}

/** A drop-down bound to the form. */
export function FormSelect<F extends SelectFieldName>({
  form,
  field,
  label,
  helper,
  options,
  disabled = false,
}: {
  form: StorageFormController;
  field: F;
  label: string;
  helper?: string;
  options: readonly SelectOption[];
  disabled?: boolean;
}) {
  const error = form.errorFor(field);
  return (
    <TextField
      select
      fullWidth
      name={field}
      label={label}
      value={form.values[field]}
      onChange={(event) => form.change(field, event.target.value as StorageFormValues[F])}
      error={Boolean(error)}
      helperText={error ?? helper}
      disabled={disabled}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value} disabled={option.disabled ?? false}>
          {option.label ?? option.value}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** An on/off switch with its helper text tied to it as the accessible description. */
export function FormSwitch({
  form,
  field,
  label,
  helper,
  disabled = false,
}: {
  form: StorageFormController;
  field: SwitchFieldName;
  label: string;
  helper: string;
  disabled?: boolean;
}) {
  const error = form.errorFor(field);
  const helperId = `${field}-helper`;
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            name={field}
            checked={form.values[field]}
            onChange={(event) => form.change(field, event.target.checked)}
            disabled={disabled}
            slotProps={{ input: { 'aria-describedby': helperId } }}
          />
        }
        label={label}
      />
      <FormHelperText id={helperId} error={Boolean(error)} sx={{ mt: 0 }}>
        {error ?? helper}
      </FormHelperText>
    </Box>
  );
}

/**
 * Moves focus to a field by its name: the input itself, or for a drop-down (whose named input is
 * hidden) the combobox beside it.
 */
export function focusField(root: HTMLElement | null, field: string): void {
  const named = root?.querySelector<HTMLElement>(`[name="${field}"]`);
  if (!named) return;
  const target =
    named.getAttribute('aria-hidden') === 'true'
      ? named.parentElement?.querySelector<HTMLElement>('[role="combobox"]')
      : named;
  target?.focus();
}

/** Options for a select from a list of plain values. */
export const optionsOf = (values: readonly string[]): SelectOption[] => values.map((value) => ({ value }));
