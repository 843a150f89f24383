import { bookSchemas } from './book.js';
import { errorSchemas } from './errors.js';
import { metaSchemas } from './meta.js';

/** Every schema routes name by reference (`Type.Ref('BookResponse')`), added to the app once (app.ts). */
export const sharedSchemas = [...errorSchemas, ...bookSchemas, ...metaSchemas];
