export { CHANGE_FEED, type ChangeFeed } from './change-feed.port';
export { changeOf } from './change-of';
export { CHANGE_SCHEMAS } from './change-schemas';
export { changedFields, forgottenChange, forgottenChangeItem, renderChange, type ChangeItem, type StoredChange } from './changes';
export { CURSOR_CHARS, CURSOR_CODEC, CursorCodec } from './cursors';
