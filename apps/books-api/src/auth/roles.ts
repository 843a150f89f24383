/** Role names carried in the `roles` claim. */
export const BOOKS_READ = 'Books.Read';
export const BOOKS_WRITE = 'Books.Write';
