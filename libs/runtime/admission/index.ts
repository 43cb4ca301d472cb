export { MemoryWindowCounter, windowStart, type WindowCounter } from './window-counter';
