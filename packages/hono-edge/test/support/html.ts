/** Hosts of absolute URLs (`http:`, `https:`, protocol-relative) in an HTML page's attributes and text. */
export const externalHosts = (html: string): string[] => [...html.matchAll(/(?:https?:)?\/\/([a-z0-9.-]+\.[a-z]{2,})/gi)].map((m) => m[1]!);

/** The URLs a page's `src` and `href` attributes reference. */
export const referencedUrls = (html: string): string[] => [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
