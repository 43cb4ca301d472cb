/**
 * Who is writing: the caller's provider and token, the API version name the request used (recorded
 * in the events' metadata, docs/DESIGN.md "Event envelope") and the request id.
 */
export interface Caller {
  ukprn: string;
  tokenId: string | null;
  apiVersion: string;
  requestId: string | null;
}
