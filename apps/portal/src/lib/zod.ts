/**
 * zod as the portal uses it: without the fast path it compiles with `new Function`. In the
 * browser that would need 'unsafe-eval', which the portal's Content-Security-Policy does not
 * grant, and zod's probe for it alone reports a CSP violation. The portal's schemas are small;
 * the interpreted path is fast enough. Import z from here, never from 'zod' directly: the switch
 * must be set before any schema is built.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
