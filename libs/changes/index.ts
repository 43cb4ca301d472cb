export { CHANGE_FEED, type ChangeFeed } from './change-feed.port';
export { changeOf } from './change-of';
export { CHANGE_SCHEMAS } from './change-schemas';
export { CURSOR_MAX_CHARS, changedFields, decodeCursor, encodeCursor, renderChange, type ChangeItem, type StoredChange } from './changes';
