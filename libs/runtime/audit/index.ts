export { verifyLog, type LogVerification, type VerifyLogListener } from './verify-log';
