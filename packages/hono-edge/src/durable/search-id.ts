/**
 * Search ids that route back to their Durable Object: `<object id, 64 hex digits>.<random UUID>`. The object
 * mints them (`newSearchId`); the Worker reads the object id out of a poll's `Token` / `LeaseId` and sends
 * the poll to that object. The id is no secret: a search is still found only within its tenant.
 */

const SEARCH_ID = /^([0-9a-f]{64})\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A new search id of the object whose id (hex) is given. */
export const mintSearchId = (objectId: string): string => `${objectId}.${crypto.randomUUID()}`;

/** The object id (hex) a search id routes to; undefined when the text is not such an id. */
export const objectIdOfSearch = (searchId: string): string | undefined => SEARCH_ID.exec(searchId.trim())?.[1];
