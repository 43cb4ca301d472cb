export type { PageSessionBounds, PageSessionPool, PageSessionStore, StoredPageSession } from './page-session-store.port';
