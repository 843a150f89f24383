'use client';
import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { debounce } from '@mui/material/utils';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { DEFAULT_SORT, inventoryHref, type InventoryView } from './inventory-href';

// Typing settles before the server is asked, so each keystroke does not load a page.
const FILTER_DELAY_MS = 300;

/**
 * The inventory's text filter. It only changes the page's URL (`?q=`, back to the first page); the
 * server renders the rows that match. The field keeps what is typed and its focus while the page
 * re-renders underneath it. Without JavaScript it is a plain GET form with the same parameters.
 */
export function InventoryFilter({ view, namespaced }: { view: InventoryView; namespaced: boolean }) {
  const router = useRouter();
  const q = view.q ?? '';
  const [text, setText] = useState(q);
  // The filter this field last asked the server for (or took from the URL); a page rendered for it
  // must not overwrite what has been typed since.
  const asked = useRef(q);
  // One debounced search for the field's life, across re-renders; it navigates with the router and
  // the view of the latest render.
  const latest = useRef({ router, view });
  useEffect(() => {
    latest.current = { router, view };
  }, [router, view]);
  const [search] = useState(() => {
    const now = (typed: string) => {
      const next = typed.trim();
      if (next === asked.current) return;
      asked.current = next;
      const { router, view } = latest.current;
      router.replace(inventoryHref({ ...view, q: next, cursor: undefined }), { scroll: false });
    };
    return { now, later: debounce(now, FILTER_DELAY_MS) };
  });
  useEffect(() => () => search.later.clear(), [search]);

  useEffect(() => {
    // The URL's filter changed without this field asking (back, forward, a link): show that one.
    if (q === asked.current) return;
    asked.current = q;
    search.later.clear();
    setText(q);
  }, [q, search]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    search.later.clear();
    search.now(text);
  };
  const sort = view.sort ?? DEFAULT_SORT;

  return (
    <Box
      component="form"
      role="search"
      action="/resources"
      onSubmit={onSubmit}
      sx={{ display: 'flex', flexGrow: 1, minWidth: 0 }}
    >
      {view.state ? <input type="hidden" name="state" value={view.state} /> : null}
      {view.class ? <input type="hidden" name="class" value={view.class} /> : null}
      {view.namespace ? <input type="hidden" name="namespace" value={view.namespace} /> : null}
      {sort !== DEFAULT_SORT ? <input type="hidden" name="sort" value={sort} /> : null}
      <TextField
        label="Filter resources"
        placeholder={
          namespaced
            ? 'Name, namespace, application, group, location, SKU or state'
            : 'Name, application, group, location, SKU or state'
        }
        size="small"
        name="q"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          search.later(event.target.value);
        }}
        sx={{ flexGrow: 1, maxWidth: 480 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Search fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
    </Box>
  );
}
