'use client';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useState } from 'react';

/** Copies a value to the clipboard; the label says what ("Copy name"), and it confirms for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // Clipboard access can be refused (insecure origin, permissions); say so instead of failing silently.
      setState('failed');
    }
  };
  const title = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text instead' : label;
  return (
    <Tooltip title={title}>
      <IconButton size="small" aria-label={label} onClick={() => void copy()} sx={{ ml: 0.5, verticalAlign: 'middle' }}>
        {state === 'copied' ? <CheckOutlined fontSize="inherit" /> : <ContentCopyOutlined fontSize="inherit" />}
      </IconButton>
    </Tooltip>
  );
}
