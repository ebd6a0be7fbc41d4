/**
 * An OLE compound file ([MS-CFB]): what an Excel 97-2003 workbook is, and also what Excel and
 * LibreOffice write for an .xlsx protected by a password ([MS-OFFCRYPTO]: the encrypted package is a
 * stream named `EncryptedPackage` beside `EncryptionInfo`). Only its directory is looked at, to tell
 * the two apart and say what to do (issue 33); nothing is decrypted or decoded.
 */

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Sector numbers at or past this are markers (free, end of chain, FAT or DIFAT sector). */
const MAX_SECTOR = 0xfffffffa;
const HEADER_DIFAT_ENTRIES = 109;
const ENTRY_SIZE = 128;
const STREAM = 2;
const ENCRYPTED_PACKAGE = 'EncryptedPackage';

export function isCompoundFile(bytes: Buffer): boolean {
  return bytes.length >= SIGNATURE.length && SIGNATURE.every((b, i) => bytes[i] === b);
}

/**
 * Whether a compound file's directory holds an `EncryptedPackage` stream: the directory's chain of
 * sectors is followed through the FAT, each sector visited once at most (a looping chain stops
 * there), so the work is bounded by the file's own size. A header or chain that cannot be read
 * answers false (the file is then taken for an .xls, as before).
 */
export function hasEncryptedPackage(bytes: Buffer): boolean {
  if (!isCompoundFile(bytes) || bytes.length < 512) return false;
  const shift = bytes.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return false;
  const size = 1 << shift;
  const sectors = Math.floor((bytes.length - size) / size);
  if (sectors <= 0) return false;
  const at = (sector: number): number => (sector + 1) * size;
  const perSector = size / 4;

  // Where the FAT's own sectors are: 109 in the header, the others in the DIFAT chain.
  const fat: number[] = [];
  for (let i = 0; i < HEADER_DIFAT_ENTRIES; i++) {
    const s = bytes.readUInt32LE(0x4c + i * 4);
    if (s >= MAX_SECTOR || s >= sectors) break;
    fat.push(s);
  }
  let difat = bytes.readUInt32LE(0x44);
  for (let hops = 0; difat < MAX_SECTOR && difat < sectors && hops < sectors; hops++) {
    const base = at(difat);
    for (let i = 0; i < perSector - 1; i++) {
      const s = bytes.readUInt32LE(base + i * 4);
      if (s < MAX_SECTOR && s < sectors) fat.push(s);
    }
    difat = bytes.readUInt32LE(base + (perSector - 1) * 4);
  }
  const next = (sector: number): number => {
    const page = fat[Math.floor(sector / perSector)];
    return page === undefined ? MAX_SECTOR : bytes.readUInt32LE(at(page) + (sector % perSector) * 4);
  };

  const seen = new Set<number>();
  for (let s = bytes.readUInt32LE(0x30); s < MAX_SECTOR && s < sectors && !seen.has(s); s = next(s)) {
    seen.add(s);
    const base = at(s);
    for (let e = base; e + ENTRY_SIZE <= base + size; e += ENTRY_SIZE) {
      if (bytes[e + 66] === STREAM && entryName(bytes, e) === ENCRYPTED_PACKAGE) return true;
    }
  }
  return false;
}

/** A directory entry's name: UTF-16LE, its length in bytes (terminator included) at offset 64. */
function entryName(bytes: Buffer, entry: number): string {
  const length = bytes.readUInt16LE(entry + 64);
  if (length < 2 || length > 64) return '';
  return bytes.toString('utf16le', entry, entry + length - 2);
}
