export const PRIVATE_UMASK = 0o077;

/** Files 0600, directories 0700, whatever the umask (docs/operations.md "File permissions"); returns the old umask. */
export function keepNewFilesPrivate(): number {
  return process.umask(PRIVATE_UMASK);
}
