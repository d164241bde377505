/** How the adapter proves who it is to the upstream. */
export type UpstreamCredentials =
  /** A static bearer token (an API key): sent as is, never refreshed. */
  | { readonly token: string }
  /** An agency login: exchanged for a token with the OAuth2 password grant at `POST {base}/Token`. */
  | { readonly username: string; readonly password: string };

/** Whether credentials are a login (so a refused token can be replaced by logging in again). */
export const isLogin = (c: UpstreamCredentials): c is { readonly username: string; readonly password: string } => "username" in c;
