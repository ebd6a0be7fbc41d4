import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Readers (the gateway, the worker, the CLI) must never see a half-written list or manifest: the
 * content goes to a temporary file in the same directory (so the rename stays on one file system)
 * and replaces the target in one rename.
 */
export function writeFileAtomic(target: string, content: string): void {
  const temp = `${target}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    const fd = openSync(temp, 'w');
    try {
      writeFileSync(fd, content, 'utf8');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
