/**
 * The contract every upload store passes (libs/uploads/write/upload-files.port.ts; docs/DESIGN.md
 * "Uploads"): an upload's named parts stored and read back byte for byte, listed by name, replaced
 * when put again, and all deleted at once (safe to repeat), another upload's left as they are.
 */
import { randomBytes } from 'node:crypto';
import type { UploadFiles } from '@app/uploads/write';

/** A store on fresh storage; `reopen` opens another one on the same storage (as another process would). */
export interface UploadFilesFixture {
  store: UploadFiles;
  reopen(): Promise<UploadFiles>;
  cleanup(): Promise<void>;
}

export function describeUploadFilesContract(name: string, open: () => Promise<UploadFilesFixture>): void {
  describe(`Upload store contract: ${name}`, () => {
    let fx: UploadFilesFixture;
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(() => fx.cleanup());

    it('stores a part durably and reads it back byte for byte, from another connection too', async () => {
      const file = randomBytes(1_048_576 + 28);
      await fx.store.put('u1', 'file', file);
      expect(Buffer.from((await fx.store.get('u1', 'file'))!).equals(file)).toBe(true);
      const other = await fx.reopen();
      expect(Buffer.from((await other.get('u1', 'file'))!).equals(file)).toBe(true);
      expect(await fx.store.get('u1', 'messages-x')).toBeNull();
      expect(await fx.store.get('u2', 'file')).toBeNull();
    });

    it('lists an upload’s parts by name, and replaces a part put again', async () => {
      await fx.store.put('u1', 'messages-b', Buffer.from('one'));
      await fx.store.put('u1', 'file', Buffer.from('two'));
      await fx.store.put('u1', 'messages-b', Buffer.from('three'));
      expect(await fx.store.parts('u1')).toEqual(['file', 'messages-b']);
      expect(Buffer.from((await fx.store.get('u1', 'messages-b'))!).toString()).toBe('three');
      expect(await fx.store.parts('u2')).toEqual([]);
    });

    it('deletes every part of an upload, and only its own; deleting again deletes nothing', async () => {
      await fx.store.put('u1', 'file', Buffer.from('a'));
      await fx.store.put('u1', 'messages-c', Buffer.from('b'));
      await fx.store.put('u2', 'file', Buffer.from('c'));
      expect(await fx.store.delete('u1')).toBe(2);
      expect(await fx.store.parts('u1')).toEqual([]);
      expect(await fx.store.get('u1', 'file')).toBeNull();
      expect(Buffer.from((await fx.store.get('u2', 'file'))!).toString()).toBe('c');
      expect(await fx.store.delete('u1')).toBe(0);
      const other = await fx.reopen();
      expect(await other.parts('u1')).toEqual([]);
    });
  });
}
