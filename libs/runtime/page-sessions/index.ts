export {
  PAGE_SESSION_STORE,
  type PageSessionBounds,
  type PageSessionPool,
  type PageSessionStore,
  type StoredPageSession,
} from './page-session-store.port';
