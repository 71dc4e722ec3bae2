// What a hosted page's handler is told of its request besides the request itself (checkout/router.ts
// builds it; every page reads it).

/** What a page knows of the request besides: the shopper's address (TRUST_PROXY: the proxy's word). */
export interface PageRequest {
  ip: string | null;
  /**
   * Opened inside a frame (the browser's Sec-Fetch-Dest: iframe): an embedded checkout. Whether
   * the frame may show it at all is the browser's to enforce, by the page's frame-ancestors.
   */
  framed: boolean;
}
