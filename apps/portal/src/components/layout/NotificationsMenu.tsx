'use client';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import NextLink from 'next/link';
import { useEffect, useId, useRef, useState } from 'react';
import { listenLive } from '@/components/live/live-connection';
import type { PortalNotification } from '@/lib/platform/notification';

const KEPT = 20;

function title(item: PortalNotification): string {
  return `${item.action[0]?.toUpperCase() ?? ''}${item.action.slice(1)} of ${item.account} ${item.outcome}`;
}

/**
 * The header's notifications: how the actions this user started ended, newest first, each a link to
 * its account. New ones arrive through the live event stream; the count is of those not yet seen.
 */
export function NotificationsMenu({ since, initial }: { since: number; initial: PortalNotification[] }) {
  const [items, setItems] = useState(initial);
  const [unseen, setUnseen] = useState(0);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const start = useRef(since);
  useEffect(
    () =>
      listenLive(start.current, 'notification', (data) => {
        const item = data as PortalNotification;
        setItems((current) =>
          current.some((known) => known.id === item.id) ? current : [item, ...current].slice(0, KEPT),
        );
        setUnseen((count) => count + 1);
      }),
    [],
  );
  const label = unseen > 0 ? `Notifications, ${unseen} new` : 'Notifications';
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={label}
        aria-controls={anchor ? menuId : undefined}
        aria-haspopup="true"
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setUnseen(0);
        }}
      >
        <Badge badgeContent={unseen} color="error">
          <NotificationsOutlined />
        </Badge>
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {items.length === 0 ? (
          <MenuItem disabled>No notifications yet</MenuItem>
        ) : (
          items.map((item) => (
            <MenuItem
              key={item.id}
              component={NextLink}
              href={`/resources/${encodeURIComponent(item.account)}`}
              onClick={() => setAnchor(null)}
            >
              <ListItemText
                primary={title(item)}
                secondary={item.outcome === 'failed' ? item.reason : new Date(item.at).toLocaleString()}
                slotProps={{ secondary: { sx: { whiteSpace: 'normal', maxWidth: 360 } } }}
              />
            </MenuItem>
          ))
        )}
      </Menu>
    </>
  );
}
