/** The umask every process of the service runs under: new files 0600, new directories 0700. */
export const PRIVATE_UMASK = 0o077;

/**
 * Makes every file this process creates from now on readable and writable by its user only (0600,
 * directories 0700), whatever umask it was started with: the stores, exports, digests, backups and
 * keys hold personal data or secrets (docs/operations.md "File permissions"). Called first thing by
 * each entry point (the API, the projector, the admin CLI). Returns the umask it replaced.
 */
export function keepNewFilesPrivate(): number {
  return process.umask(PRIVATE_UMASK);
}
