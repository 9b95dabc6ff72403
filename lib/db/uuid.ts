/** A UUID in its usual text form, any case. Its own module: browser code (cursors) uses it without lib/http's server imports. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
