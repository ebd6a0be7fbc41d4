import { createHash } from 'node:crypto';

/**
 * Hash of a JSON body that does not depend on key order or whitespace: the "same body" of an
 * idempotent retry (SERVICE.md §4.2) is the same data, however the client serialises it.
 */
export function bodyHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** An array or object being written: its members, how many are taken, and the texts of those done. */
interface Frame {
  readonly container: object;
  /** Sorted keys of an object; null for an array. */
  readonly keys: string[] | null;
  readonly length: number;
  next: number;
  readonly parts: string[];
}

/**
 * The canonical text of a value: object keys sorted (code-unit order), no whitespace, every other
 * value as JSON.stringify writes it. An undefined, function or symbol member is written `null` (an
 * object keeps its key); an array hole is written as nothing between its commas. `toJSON` is not
 * called: a Date or a Map is an object of its own enumerable keys.
 *
 * Iterative, on an explicit stack (each container's text is joined from its members' texts when it
 * closes, as the recursive version did): however deep the value — a 100,000-deep array parses
 * fine — the call stack does not grow, so no RangeError. A cycle, which has no text, is a
 * TypeError rather than an endless loop.
 */
export function canonicalJson(root: unknown): string {
  const stack: Frame[] = [];
  /** The containers being written (the path from the root): a cycle comes back to one of them. */
  const open = new Set<object>();
  let value: unknown = root;
  for (;;) {
    /** The finished text of the current member; undefined while it is a container being written. */
    let text: string | undefined;
    if (Array.isArray(value)) enter(value, null, value.length);
    else if (value && typeof value === 'object') {
      const keys = Object.keys(value).sort();
      enter(value, keys, keys.length);
    } else text = JSON.stringify(value) ?? 'null';

    // Hand finished texts to their container, closing the containers whose members are all done,
    // until the next member to write.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return text!;
      if (text !== undefined) {
        top.parts.push(top.keys ? `${JSON.stringify(top.keys[top.next - 1])}:${text}` : text);
        text = undefined;
      }
      if (top.next < top.length) {
        const i = top.next++;
        if (top.keys) {
          value = (top.container as Record<string, unknown>)[top.keys[i]!];
          break;
        }
        if (i in top.container) {
          value = (top.container as unknown[])[i];
          break;
        }
        text = ''; // a hole
        continue;
      }
      stack.pop();
      open.delete(top.container);
      text = top.keys ? `{${top.parts.join(',')}}` : `[${top.parts.join(',')}]`;
    }
  }

  function enter(container: object, keys: string[] | null, length: number): void {
    if (open.has(container)) throw new TypeError('canonicalJson: the value is cyclic');
    open.add(container);
    stack.push({ container, keys, length, next: 0, parts: [] });
  }
}
