export { isMongoUnavailable } from './unavailable';
export { MongoWebhookOutbox } from './mongo-webhook-outbox';
export { MongoWindowCounter } from './mongo-window-counter';
export { mongoStoreCollections } from './read-models/mongo-collections';
export { MongoReadModel } from './read-models/mongo-read-model';
export { MongoDataKeyStore } from './mongo-data-key-store';
export { MongoDigestTreeStore } from './mongo-digest-tree';
export { MongoUploadFiles, UPLOAD_PARTS_COLLECTION } from './mongo-upload-files';
export { MongoPageSessionStore, PAGE_SESSIONS_COLLECTION } from './mongo-page-session-store';
