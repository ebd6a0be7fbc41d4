/**
 * The text of a JSON body's bytes, for the event loop's parse and the rules threads' alike. UTF-8
 * (RFC 8259 §8.1); a leading byte-order mark is ignored, as RFC 8259 allows. Bytes that are not
 * UTF-8 become U+FFFD, which the rules refuse in any value, naming the field (INVALID_CHARACTER):
 * a damaged name never reaches a file.
 */
export function jsonText(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
