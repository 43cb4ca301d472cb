/** Who is writing, as the events' metadata records it (docs/DESIGN.md "Event envelope"). */
export interface Caller {
  ukprn: string;
  tokenId: string | null;
  apiVersion: string;
  requestId: string | null;
  /** A person signed in to the uploads page: their opaque `sub` (docs/operations.md "Signing in to the uploads page"). */
  userId?: string | null;
}
